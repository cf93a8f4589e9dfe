// The offline mirror of images and artifacts.
import { mirrorRoutes } from './routes';

export const mirrorModule = { name: 'mirror', routes: mirrorRoutes } as const;
