import { Link } from 'react-router';
import { Home } from 'lucide-react';
import { Logo } from './Logo';

export function NotFoundPage() {
  return (
    <div className="app-bg flex min-h-dvh flex-col items-center justify-center px-6 text-center">
      <Logo />
      <p className="mt-10 bg-gradient-to-r from-violet-400 to-fuchsia-400 bg-clip-text text-7xl font-black text-transparent">404</p>
      <h1 className="mt-3 text-2xl font-semibold text-white">Page not found</h1>
      <p className="mt-2 max-w-sm text-sm text-zinc-400">
        The page you are looking for does not exist or has moved.
      </p>
      <Link to="/" className="btn btn-primary mt-8">
        <Home className="size-4" aria-hidden="true" /> Go home
      </Link>
    </div>
  );
}
