// The check results the API carries (profile rules, preflight checks, report lines): their schemas are
// check-types.ts, named here for the contract's index.
export type { Bilingual } from './bilingual';
export type { CheckResult, CheckStatus, Evidence, LineStatus, ReportLine } from './check-types';
