// Fields that many views of the API share, written once: why a run failed, who asked for it and when, who made a
// record, which host a record is of, a catalog service's head, a file's content as hashed. Contract files spread
// them into their schemas (`z.object({ ...failureFields, … })`), so that one field means the same everywhere.
import { z } from './zod';

/** Why it failed: an error code of the table and its message; both null while nothing failed. */
export const failureFields = {
  code: z.string().nullable(),
  message: z.string().nullable(),
};

/** A run that a user asked for: why it failed, who asked and when, and when it ended (null while it runs). */
export const requestedRunFields = {
  ...failureFields,
  requested_by: z.string(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
};

/** When a record was made, and by whom (a user id). */
export const authorFields = {
  created_at: z.string(),
  created_by: z.string(),
};

/** The host a record is of: its id, and its name as shown. */
export const hostFields = {
  host_id: z.string(),
  host_name: z.string(),
};

/** A service as the catalog describes it: its name, title and description, and whether it keeps data. */
export const catalogServiceFields = {
  service: z.string(),
  title: z.string(),
  description: z.string(),
  stateful: z.boolean(),
};

/** A file's content as hashed when it was written: its sha256 (hex) and its size in bytes. */
export const fileContentFields = {
  sha256: z.string(),
  size: z.number(),
};
