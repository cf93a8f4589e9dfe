// zod as the portable contract uses it: jitless, so no parser is compiled with `new Function`. The console's CSP
// forbids eval, and zod's probe for it, made when a schema is built, is reported as a violation even though
// caught; the setting must hold before any schema is built, hence every contract file imports z from here.
import { z } from 'zod';

z.config({ jitless: true });

export { z };
