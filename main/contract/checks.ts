// The check results the API carries (profile rules, preflight checks, report lines): documents defined once in
// main/core/checks, the folder every check builds on, and named here for the contract.
export type { Bilingual } from './bilingual';
export type { CheckResult, CheckStatus, Evidence, LineStatus, ReportLine } from './check-types';
