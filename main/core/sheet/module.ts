// The sheet of an installed service.
import type { DomainModule } from '../module';
import { serviceSheetRoutes } from './routes';

export const sheetModule: DomainModule = { name: 'sheet', routes: serviceSheetRoutes };
