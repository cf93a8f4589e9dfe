// Service certificates: the per-cluster service CAs and the ledger of the certificates they issued.
import type { DomainModule } from '../module';
import { certificatesMigrations } from './migrations';

export const certificatesModule: DomainModule = { name: 'certificates', migrations: certificatesMigrations };
