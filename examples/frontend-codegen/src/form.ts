// What the generated types give a form: the ad set it read, sent back as the update's input without a cast.
import type { SaveAdSetFormMutation, UpdateAdSetInput } from './gql/graphql.ts';

type AdSetForm = SaveAdSetFormMutation['updateAdSet'];

export function updateInputOf({ id: _id, ...form }: AdSetForm): UpdateAdSetInput {
  return form;
}

export const countriesOf = (adSet: AdSetForm): string[] => adSet.targeting.geoLocations.countries ?? [];
