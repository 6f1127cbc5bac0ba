import type { RequestContext } from '../../context/index.ts';
import { insertObjects } from '../../db/objects.ts';
import { DomainError } from '../../errors/index.ts';
import {
  decimal,
  decodeJsonText,
  given,
  graphId,
  isPlainObject,
  jsonObject,
  jsonText,
  missingParam,
  oneOf,
  optionalParam,
  paramError,
  requiredParam,
  text,
  type Params,
  type Reader,
} from '../../graph-api/params.ts';
import { AUDIENCE_SUBTYPES, CUSTOM_EVENT_TYPES, LOOKALIKE_TYPES } from '../rules/enums.ts';
import { customAudiences, customConversions, RESTRICTED_LOOKALIKE, type CustomAudienceRecord, type CustomConversionRecord } from '../store.ts';
import { createInAccount } from './common.ts';

/** Custom audience and custom conversion writes (DECISIONS section 8). */

function readLookalikeSpec(value: unknown, name: string): Record<string, unknown> {
  const spec = jsonObject(value, name);
  const field = (key: string, read: Reader<unknown>) => {
    if (spec[key] === undefined || spec[key] === null) return;
    try {
      read(spec[key], `${name}.${key}`);
    } catch (error) {
      if (error instanceof DomainError) throw paramError(name, error.message);
      throw error;
    }
  };
  field('ratio', decimal(0.01, 0.2));
  field('starting_ratio', decimal(0, 0.19));
  field('country', (v, n) => {
    if (typeof v !== 'string' || !/^[A-Z]{2}$/.test(v)) throw paramError(n, `Param ${n} must be a two-letter country code`);
    return v;
  });
  field('type', oneOf(LOOKALIKE_TYPES));
  field('origin_audience_id', graphId);
  return spec;
}

/**
 * POST /act_<ID>/customaudiences. A LOOKALIKE needs `lookalike_spec` and a source audience of the same account
 * (`origin_audience_id`, as a parameter or inside the spec; stored in the spec); a lookalike of a flagged
 * audience starts with operation_status 471. The flag itself is only set by the platform's review (the CLI).
 */
export function createCustomAudience(ctx: RequestContext, accountId: string, params: Params): Promise<CustomAudienceRecord> {
  params ??= {};
  return createInAccount(ctx, accountId, 'custom_audience', 'custom audiences', {
    async read(account) {
      const name = requiredParam(params, 'name', text({ max: 255, nonEmpty: true }));
      const subtype = optionalParam(params, 'subtype', oneOf(AUDIENCE_SUBTYPES)) ?? 'CUSTOM';
      const description = optionalParam(params, 'description', text({ max: 1024 })) ?? null;
      let lookalikeSpec: Record<string, unknown> | null = null;
      let operationStatus: { code: number; description: string } = { code: 200, description: 'Normal' };
      if (subtype === 'LOOKALIKE') {
        lookalikeSpec = requiredParam(params, 'lookalike_spec', readLookalikeSpec);
        const originId =
          optionalParam(params, 'origin_audience_id', graphId) ??
          (lookalikeSpec.origin_audience_id === undefined ? undefined : String(lookalikeSpec.origin_audience_id));
        if (originId === undefined) throw missingParam('origin_audience_id');
        const origin = await ctx.loaders.ads.customAudienceById.load(originId);
        if (!origin || origin.accountId !== account.id) {
          throw paramError('origin_audience_id', `Param origin_audience_id must be the id of a custom audience of ad account act_${account.id}`);
        }
        lookalikeSpec = { ...lookalikeSpec, origin_audience_id: originId };
        if (origin.flaggedReason !== null || origin.operationStatusCode === RESTRICTED_LOOKALIKE.code) operationStatus = { ...RESTRICTED_LOOKALIKE };
      } else if (given(params, 'lookalike_spec')) {
        throw paramError('lookalike_spec', 'Param lookalike_spec is only accepted with subtype LOOKALIKE');
      }
      return { name, subtype, description, lookalikeSpec, operationStatus };
    },
    async insert(trx, account, input) {
      const [audience] = await insertObjects<CustomAudienceRecord>(trx, 'custom_audience', customAudiences, [
        {
          organizationId: account.organizationId,
          accountId: account.id,
          name: input.name,
          subtype: input.subtype,
          description: input.description,
          lookalikeSpec: input.lookalikeSpec,
          flaggedReason: null,
          operationStatusCode: input.operationStatus.code,
          operationStatusDescription: input.operationStatus.description,
        },
      ]);
      return audience!;
    },
    loader: (c) => c.loaders.ads.customAudienceById,
  });
}

/** The rule of a custom conversion: a JSON object, or a string holding one; stored as JSON text. */
const conversionRule: Reader<string> = (value, name) => {
  const invalid = () => paramError(name, `Param ${name} must be a JSON object (or a string holding one)`);
  let parsed: unknown;
  try {
    parsed = decodeJsonText(value, name);
  } catch {
    throw invalid();
  }
  if (!isPlainObject(parsed)) throw invalid();
  return jsonText(parsed, name);
};

/** POST /act_<ID>/customconversions (authorized as custom audiences: the policy has one type for both). */
export function createCustomConversion(ctx: RequestContext, accountId: string, params: Params): Promise<CustomConversionRecord> {
  params ??= {};
  return createInAccount(ctx, accountId, 'custom_audience', 'custom conversions', {
    read: () => ({
      name: requiredParam(params, 'name', text({ max: 255, nonEmpty: true })),
      rule: requiredParam(params, 'rule', conversionRule),
      customEventType: optionalParam(params, 'custom_event_type', oneOf(CUSTOM_EVENT_TYPES)) ?? null,
    }),
    async insert(trx, account, input) {
      const [conversion] = await insertObjects<CustomConversionRecord>(trx, 'custom_conversion', customConversions, [
        {
          organizationId: account.organizationId,
          accountId: account.id,
          ...input,
          flaggedReason: null,
        },
      ]);
      return conversion!;
    },
    loader: (c) => c.loaders.ads.customConversionById,
  });
}
