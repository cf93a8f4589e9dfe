// A cluster's FQDN and address, the two optional fields the DNS and TLS checks of its profile compare: the same
// in the new-cluster form and in the profile tab's endpoint form.
import type { ReactElement } from 'react';
import { useT } from '../app/stores';
import { TextField } from './TextField';

export type EndpointField = 'fqdn' | 'address';

const FIELDS = {
  fqdn: { label: 'clusters.create.fqdn', hint: null, placeholder: 'k8s.edge-paris-1.internal' },
  address: { label: 'clusters.create.address', hint: 'clusters.create.addressHelp', placeholder: '10.0.0.10' },
} as const;

export interface EndpointFieldsProps {
  /** The controls' ids are `<idPrefix>-fqdn` and `<idPrefix>-address`. */
  idPrefix: string;
  values: Record<EndpointField, string>;
  onChange: (field: EndpointField, value: string) => void;
  /** The manager's refusal of a field, shown under it. */
  errorOn?: (field: EndpointField) => string | null;
  /** A field the manager refused, marked invalid without a message of its own. */
  invalid?: (field: EndpointField) => boolean;
}

export function EndpointFields({ idPrefix, values, onChange, errorOn, invalid }: EndpointFieldsProps): ReactElement {
  const t = useT();
  return (
    <>
      {(['fqdn', 'address'] as const).map((field) => {
        const { label, hint, placeholder } = FIELDS[field];
        return (
          <TextField
            key={field}
            id={`${idPrefix}-${field}`}
            label={t(label)}
            note="optional"
            hint={hint === null ? undefined : t(hint)}
            error={errorOn?.(field)}
            code
            value={values[field]}
            onChange={(value) => onChange(field, value)}
            placeholder={placeholder}
            input={{ 'aria-invalid': invalid?.(field) || undefined }}
          />
        );
      })}
    </>
  );
}
