// The manager's public signing keys (manager.pem for whoever verifies what it signed) and their rotation.
// Declared schema first: the keyring lists its keys as these types.
import { z } from './zod';
import type { RoutesOf } from './route';

export const publicKeyInfoSchema = z.object({
  key_id: z.string(),
  public_key_pem: z.string(),
  created_at: z.string(),
  retired_at: z.string().nullable(),
  active: z.boolean(),
});
export type PublicKeyInfo = z.infer<typeof publicKeyInfoSchema>;

export const keyListSchema = z.object({ items: z.array(publicKeyInfoSchema) });
export type KeyList = z.infer<typeof keyListSchema>;

export const keyRouteSchemas = {
  'GET /api/v1/keys': { result: keyListSchema },
  /** key_id: the new key, which signs from now on. */
  'POST /api/v1/keys/rotate': { result: keyListSchema.extend({ key_id: z.string() }), status: 201 },
  'POST /api/v1/keys/:id/retire': { result: keyListSchema },
  'GET /api/v1/keys/manager.pem': { result: z.string(), media: 'application/x-pem-file' },
} as const;

export type KeyRoutes = RoutesOf<typeof keyRouteSchemas>;
