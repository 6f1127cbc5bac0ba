/**
 * promoted_object.application_id: an application the gateway knows (registered with `adgraph apps create`), and
 * promoted_object.object_store_url, when given, one of that application's store URLs. Pure: the write looks the
 * application up and hands over what it found.
 */
import { asObject } from './stored-json.ts';
import { violation, type Violation } from './violations.ts';

/** The application a promoted object names, as the rules see it. */
export interface ApplicationFacts {
  id: string;
  name: string;
  storeUrls: readonly string[];
}

/** The platform's error 900 ("No such application exists"), naming the parameter. */
export const NO_SUCH_APPLICATION = 900;

/**
 * Violations of a promoted object's application: none without application_id; error 900 when it names no known
 * application (`applications` holds what the lookup found, by id); error 100 when object_store_url is not one of
 * the application's store URLs.
 */
export function applicationViolations(promotedObject: unknown, applications: ReadonlyMap<string, ApplicationFacts>): Violation[] {
  const promoted = asObject(promotedObject);
  const raw = promoted?.application_id;
  if (raw === undefined || raw === null) return [];
  const id = String(raw);
  const application = applications.get(id);
  if (!application) {
    return [
      violation('promoted_object.application_id', `No such application exists: ${id} is not an application this gateway knows`, {
        code: NO_SUCH_APPLICATION,
        userTitle: 'No such application',
        userMessage: 'The app in promoted_object.application_id is not registered. Check its id, or ask an operator to register it.',
      }),
    ];
  }
  const storeUrl = promoted?.object_store_url;
  if (typeof storeUrl === 'string' && !application.storeUrls.includes(storeUrl)) {
    return [
      violation(
        'promoted_object.object_store_url',
        `Param promoted_object.object_store_url must be one of application ${id}'s store URLs: ${application.storeUrls.join(', ')}`,
      ),
    ];
  }
  return [];
}
