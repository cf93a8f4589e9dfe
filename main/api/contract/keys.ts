// The manager's public signing keys (manager.pem for whoever verifies what it signed) and their rotation.

export interface PublicKeyInfo {
  key_id: string;
  public_key_pem: string;
  created_at: string;
  retired_at: string | null;
  active: boolean;
}

export interface KeyList {
  items: PublicKeyInfo[];
}

export interface KeyRoutes {
  'GET /api/v1/keys': { result: KeyList };
  'POST /api/v1/keys/rotate': { result: KeyList & { key_id: string } };
  'POST /api/v1/keys/:id/retire': { result: KeyList };
  'GET /api/v1/keys/manager.pem': { result: string };
}
