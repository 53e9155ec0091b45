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
        } as React.CSSProperties
      }
      {...props}
    />
  )
}
