// Third-party CRDs the operator's suites install: the Gateway API's HTTPRoute (on a real cluster, install the real one).

/** The Gateway API's HTTPRoute, cut down to the fields the operator writes (the real CRD validates more). */
export const HTTPROUTE_CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: httproutes.gateway.networking.k8s.io}
spec:
  group: gateway.networking.k8s.io
  scope: Namespaced
  names: {kind: HTTPRoute, listKind: HTTPRouteList, plural: httproutes, singular: httproute}
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                parentRefs:
                  type: array
                  items: {type: object, required: [name], properties: {name: {type: string}, namespace: {type: string}}}
                hostnames: {type: array, items: {type: string}}
                rules:
                  type: array
                  items:
                    type: object
                    properties:
                      backendRefs:
                        type: array
                        items: {type: object, required: [name], properties: {name: {type: string}, port: {type: integer}}}
`;
