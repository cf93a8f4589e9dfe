// The calls of the acceptance report routes (contract: contract/reports.ts).
import type { ReportLanguage } from '../../../../preload/api';
import { routeRequest, type ApiCoreClass } from '../../api/core';

/** The same-origin address of a report's HTML (opened in a new tab by the browser console). */
export function reportHtmlPath(id: string, lang: ReportLanguage): string {
  return routeRequest('GET /api/v1/reports/:id/html', { params: { id }, query: { lang } }).path;
}

export const reportCalls = <B extends ApiCoreClass>(Base: B) =>
  class extends Base {
    runAcceptance = (clusterId: string) => this.call('POST /api/v1/clusters/:id/acceptance', { params: { id: clusterId } });
    listReports = (clusterId?: string) => this.call('GET /api/v1/reports', { query: { cluster_id: clusterId } });
    getReport = (id: string) => this.call('GET /api/v1/reports/:id', { params: { id } });
    reportHtml = (id: string, lang: ReportLanguage) => this.callText('GET /api/v1/reports/:id/html', { params: { id }, query: { lang } });
  };
