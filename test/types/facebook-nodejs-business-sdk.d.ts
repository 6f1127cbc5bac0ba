/** The little of facebook-nodejs-business-sdk (which ships no types) that the tests use. */
declare module 'facebook-nodejs-business-sdk' {
  interface SdkObject {
    id: string;
    _data: Record<string, unknown>;
    [field: string]: unknown;
  }
  interface Cursor extends Array<SdkObject> {
    paging: { cursors?: { before: string; after: string }; next?: string; previous?: string } | undefined;
    summary: unknown;
    hasNext(): boolean;
    hasPrevious(): boolean;
    next(): Promise<Cursor>;
    previous(): Promise<Cursor>;
  }
  class FacebookAdsApi {
    static readonly VERSION: string;
    static readonly GRAPH: string;
    static init(accessToken: string, locale?: string, crashLog?: boolean): FacebookAdsApi;
    setDebug(flag: boolean): FacebookAdsApi;
  }
  class AdAccount {
    constructor(id: string);
    createCampaign(fields: string[], params: Record<string, unknown>): Promise<SdkObject>;
    getCampaigns(fields: string[], params?: Record<string, unknown>, fetchFirstPage?: boolean): Promise<Cursor>;
  }
  class Campaign {
    constructor(id: string);
    get(fields: string[], params?: Record<string, unknown>): Promise<SdkObject>;
  }
  const sdk: { FacebookAdsApi: typeof FacebookAdsApi; AdAccount: typeof AdAccount; Campaign: typeof Campaign };
  export default sdk;
}
