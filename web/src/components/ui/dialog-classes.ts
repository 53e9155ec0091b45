/** The looks the Dialog and the AlertDialog share: Radix gives each its own primitives (their contexts differ), so
 *  what they have in common is their classes. */
export const DIALOG_CLASSES = {
  overlay: 'fixed inset-0 z-50 bg-black/50 data-[state=open]:animate-fade-in',
  content:
    'fixed top-1/2 left-1/2 z-50 grid w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 gap-4 rounded-xl border bg-background p-6 shadow-xl data-[state=open]:animate-zoom-in',
  title: 'text-lg leading-none font-semibold',
  description: 'text-sm text-muted-foreground',
}
