import { Toaster as Sonner, type ToasterProps } from 'sonner'

export function Toaster(props: ToasterProps) {
  return (
    <Sonner
      position="bottom-right" // the header holds the notifications bell: toasts must not cover it
      richColors
      closeButton
      toastOptions={{ className: 'font-sans' }}
      style={
        {
          '--normal-bg': 'var(--popover)',
          '--normal-text': 'var(--popover-foreground)',
          '--normal-border': 'var(--border)',
          // sonner's error red (#e60000 on #fff0f0) is 4.34:1; this one passes AA (4.5:1) for its 13 px text
          '--error-text': 'hsl(0, 100%, 38%)',
          // and its success green (#008a2e on #ecfdf3) 4.26:1: this one is 4.83:1
          '--success-text': 'hsl(140, 100%, 25%)',
        } as React.CSSProperties
      }
      {...props}
    />
  )
}
