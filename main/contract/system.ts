// Health and version: the two routes that need no login.

export interface Health {
  status: 'ok';
  time: string;
}

export interface VersionInfo {
  name: 'navin-manager';
  version: string;
  api: 'v1';
  mode: 'desktop' | 'headless';
}

export interface SystemRoutes {
  'GET /api/v1/health': { result: Health };
  'GET /api/v1/version': { result: VersionInfo };
}
