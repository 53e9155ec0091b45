import * as React from 'react'
import { useFormContext, type Control, type FieldPath, type FieldValues } from 'react-hook-form'
import { ImageUp } from 'lucide-react'
import { FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form'
import { useObjectUrl } from '@/hooks/use-object-url'
import { screenshotAccept } from '@/lib/screenshot'
import { fileSize } from '@/lib/spans'
import { cn } from '@/lib/utils'

interface ScreenshotFieldProps<T extends FieldValues> {
  control: Control<T>
  name: FieldPath<T>
  id: string
  label: string
  hint?: React.ReactNode
  disabled?: boolean
}

/** A screenshot picker on a react-hook-form form: checked as soon as it is chosen, previewed when it can be sent. */
export function ScreenshotField<T extends FieldValues>({ control, name, id, label, hint, disabled }: ScreenshotFieldProps<T>) {
  const { trigger } = useFormContext<T>()
  return (
    <FormField
      control={control}
      name={name}
      render={({ field, fieldState }) => {
        const value: unknown = field.value
        const file = value instanceof File ? value : null
        return (
          <FormItem controlId={id}>
            <FormLabel>{label}</FormLabel>
            <FormControl>
              <input
                ref={field.ref}
                name={field.name}
                type="file"
                accept={screenshotAccept()}
                disabled={disabled}
                onBlur={field.onBlur}
                onChange={(event) => {
                  field.onChange(event.target.files?.[0] ?? null)
                  void trigger(name)
                }}
                className={cn(
                  'block w-full cursor-pointer rounded-md border border-input bg-background text-sm text-muted-foreground shadow-xs outline-none',
                  'file:mr-3 file:cursor-pointer file:border-0 file:border-r file:bg-muted file:px-3 file:py-2 file:text-sm file:font-medium file:text-foreground',
                  'focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/40 aria-invalid:border-destructive disabled:cursor-not-allowed disabled:opacity-50',
                )}
              />
            </FormControl>
            {hint && <FormDescription>{hint}</FormDescription>}
            <FormMessage />
            {file && !fieldState.invalid && <ScreenshotPreview file={file} />}
          </FormItem>
        )
      }}
    />
  )
}

function ScreenshotPreview({ file }: { file: File }) {
  const url = useObjectUrl(file)
  return (
    <figure className="flex items-center gap-3 rounded-lg border bg-muted/40 p-2">
      {url ? (
        <img src={url} alt="Preview of the chosen screenshot" className="size-20 shrink-0 rounded-md object-cover sm:size-24" />
      ) : (
        <ImageUp className="size-8 shrink-0 text-muted-foreground" aria-hidden="true" />
      )}
      <figcaption className="min-w-0 text-sm">
        <span className="block truncate font-medium">{file.name}</span>
        <span className="text-muted-foreground">{fileSize(file.size)}</span>
      </figcaption>
    </figure>
  )
}

/** How much of an upload has gone; before the first progress event, a busy line. */
export function UploadProgress({ share }: { share: number | null }) {
  const percent = share === null ? null : Math.round(share * 100)
  return (
    <div className="grid gap-1">
      <div
        role="progressbar"
        aria-label="Uploading the screenshot"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent ?? undefined}
        className="h-2 overflow-hidden rounded-full bg-muted"
      >
        <div className={cn('h-full rounded-full bg-primary transition-[width]', percent === null && 'w-1/3 animate-pulse')} style={percent === null ? undefined : { width: `${percent}%` }} />
      </div>
      <p className="text-xs text-muted-foreground" aria-live="polite">
        {percent === null ? 'Uploading…' : percent < 100 ? `Uploading… ${percent}%` : 'Checking the image…'}
      </p>
    </div>
  )
}
