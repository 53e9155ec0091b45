import { Link } from 'react-router'
import { Button } from '@/components/ui/button'

export default function NotFoundPage() {
  return (
    <div className="flex flex-1 flex-col items-center justify-center px-4 py-24 text-center">
      <p className="bg-gradient-to-br from-primary to-brand-2 bg-clip-text text-8xl font-black tracking-tight text-transparent">404</p>
      <h1 className="mt-4 text-2xl font-semibold">Oops! Page not found</h1>
      <p className="mt-2 max-w-sm text-muted-foreground">The page you are looking for does not exist or has moved.</p>
      <Button asChild size="lg" className="mt-8">
        <Link to="/">Return to Home</Link>
      </Button>
    </div>
  )
}
