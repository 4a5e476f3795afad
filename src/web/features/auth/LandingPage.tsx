import { ImageUp, Sparkles, Video, Wand2, Zap } from 'lucide-react';
import { Link } from 'react-router';
import { Logo } from '../../components/Logo';
import { WEB_PAGES } from '../../../shared/pages.js';
import { AuthForm } from './AuthForm';

const HIGHLIGHTS = [
  { icon: ImageUp, title: 'Upscale up to 8x', text: 'Crisp detail from small or blurry pictures.' },
  { icon: Wand2, title: 'Edit by describing', text: 'Tell the editor what to change, in plain words.' },
  { icon: Sparkles, title: 'Restore old photos', text: 'Repair damaged, faded or corrupted images.' },
  { icon: Video, title: 'Images to video', text: 'Bring a still to life in clips of up to 4 seconds.' },
];

/** The signed-out page: pitch on one side, the login / register form on the other. */
export function LandingPage() {
  return (
    <div className="app-bg flex min-h-dvh flex-col">
      <header className="mx-auto flex w-full max-w-6xl items-center px-5 pt-6 sm:px-8">
        <Logo />
      </header>

      <main className="mx-auto grid w-full max-w-6xl flex-1 content-center gap-8 px-5 py-8 sm:px-8 lg:grid-cols-[1.15fr_1fr] lg:gap-x-16 lg:gap-y-8 lg:py-16">
        <section aria-labelledby="landing-title" className="min-w-0 lg:self-end">
          <p className="inline-flex items-center gap-1.5 rounded-full border border-fuchsia-500/30 bg-fuchsia-500/10 px-3 py-1 text-xs font-semibold text-fuchsia-300">
            <Zap className="size-3.5" aria-hidden="true" fill="currentColor" /> AI image & video workspace
          </p>
          <h1
            id="landing-title"
            className="mt-5 text-4xl leading-[1.08] font-extrabold tracking-tight text-balance text-white sm:text-5xl xl:text-[3.5rem]"
          >
            Rush your images to{' '}
            <span className="bg-gradient-to-r from-violet-400 via-fuchsia-400 to-amber-300 bg-clip-text text-transparent">
              perfection
            </span>{' '}
            with AI
          </h1>
          <p className="mt-5 max-w-xl text-base text-zinc-400 sm:text-lg">
            Upscale, edit, restore and animate your pictures in seconds. Pay only for what you use with ENERGY, and
            keep every result in your personal library.
          </p>
        </section>

        {/* After the pitch on phones; beside it, across both rows, on wide screens. */}
        <section
          aria-label="Sign in or create an account"
          className="mx-auto w-full max-w-md lg:col-start-2 lg:row-span-2 lg:row-start-1 lg:mx-0 lg:self-center lg:justify-self-end"
        >
          <AuthForm />
        </section>

        <ul className="grid min-w-0 gap-3 sm:grid-cols-2 lg:self-start" aria-label="What you can do">
          {HIGHLIGHTS.map(({ icon: Icon, title, text }) => (
            <li key={title} className="flex gap-3 rounded-xl border border-zinc-800/80 bg-zinc-900/40 p-3.5">
              <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-violet-500/15 text-violet-300">
                <Icon className="size-4.5" aria-hidden="true" />
              </span>
              <span>
                <span className="block text-sm font-semibold text-zinc-100">{title}</span>
                <span className="block text-xs text-zinc-400">{text}</span>
              </span>
            </li>
          ))}
        </ul>
      </main>

      <footer className="border-t border-zinc-900 py-6 text-center text-sm text-zinc-400">
        <p>Built for creators and professionals</p>
        <nav aria-label="Legal" className="mt-2">
          <Link to={WEB_PAGES.privacy.path} className="underline decoration-zinc-600 underline-offset-4 hover:text-zinc-200">
            Privacy Policy
          </Link>
        </nav>
      </footer>
    </div>
  );
}
