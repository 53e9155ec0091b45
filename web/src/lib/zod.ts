/* Zod, set up once for the browser: every module imports z from here, not from 'zod'. Zod probes for eval with
   `new Function` on its first parse; the page's CSP (script-src 'self') refuses it and the browser reports a
   violation (Lighthouse's best practices count it). Without the probe Zod validates the same way. */
import { z } from 'zod'

z.config({ jitless: true })

export { z }
