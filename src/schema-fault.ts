// One line for the first thing a JSON Schema (ajv) found wrong in a file: the field, as a JSON pointer, and what.
import type { ErrorObject } from 'ajv';

/** `/phases/0/plan: missing`, `/files/2/sha256: must match pattern ...`; `what` names the document for an unknown field. */
export const schemaFault = (error: ErrorObject, what: string): string => {
  const at = error.instancePath;
  if (error.keyword === 'required')
    return `${at}/${(error.params as { missingProperty: string }).missingProperty}: missing`;
  if (error.keyword === 'additionalProperties')
    return `${at}/${(error.params as { additionalProperty: string }).additionalProperty}: not a field of ${what}`;
  return `${at || '/'}: ${error.message ?? 'is invalid'}`;
};
