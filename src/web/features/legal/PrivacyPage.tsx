import { useEffect, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ArrowLeft } from 'lucide-react';
import { Logo } from '../../components/Logo';
import { PRODUCT_NAME } from '../../../shared/constants.js';
import { WEB_PAGES } from '../../../shared/pages.js';

interface Section {
  title: string;
  body: ReactNode[];
}

// What the product really stores and why; keep it in step with the database
// (migrations), the providers in use and docs/decisions/014 (account deletion).
const SECTIONS: Section[] = [
  {
    title: 'Who we are and what this covers',
    body: [
      `This notice explains what ${PRODUCT_NAME} keeps about you when you use the web app or the API, why, for how long, and what you can do about it. We use your information only to run the service for you; we do not sell it, and we do not use it for advertising.`,
    ],
  },
  {
    title: 'Your account',
    body: [
      'When you sign up we store your full name, your e-mail address, a one-way hash of your password (never the password itself), your role (user, VIP or admin) and when the account was created.',
      'Each signed-in device gets a session, stored with the browser name it reported and the network address it came from, so you can see and end your sessions under Account settings. We also remember the addresses you signed in from and count failed sign-in attempts, to slow down anyone guessing passwords.',
      'If you create invite codes or join through one, we keep who invited whom. Personal API keys are stored as a hash; only their first characters are kept readable so you can tell them apart.',
    ],
  },
  {
    title: 'Your library and tool runs',
    body: [
      'Images and videos you upload or import from a link, and everything the tools make for you, are stored in your personal library with their original file name, type, size and date. Each run of a tool keeps its settings, your prompt and links to its input and result, so you can follow it, retry it and see its history.',
      'The files are processed by our own servers. Where a tool is run by an external AI processing provider, that provider receives the input file and prompt of that run only, to produce the result, under its own terms.',
      'If you give a run a webhook address, we send the run’s outcome there and keep a record of each delivery attempt.',
    ],
  },
  {
    title: 'Payments and ENERGY',
    body: [
      'Card payments are handled by Stripe. You enter your card details on Stripe’s checkout page; we never see or store your card number. From Stripe we receive and keep what a purchase needs: the bundle you bought, the amount and currency, the payment and session identifiers, and refunds or disputes.',
      'Every change to your ENERGY balance (purchases, spending on tools, refunds for failed runs, grants) is written to a ledger that is never edited, so that balances always add up.',
    ],
  },
  {
    title: 'E-mail',
    body: [
      'We send e-mail only about your account: password reset links, address confirmation, a notice when your password changes, and a link when your data export is ready. These messages go out through our mail provider.',
    ],
  },
  {
    title: 'Logs and security',
    body: [
      'Our servers write technical logs of requests and errors (time, address requested, status, a request id, and error details) to keep the service running and to investigate abuse. Rate limits record how many requests, uploads and runs an account or network address made in recent minutes and hours.',
    ],
  },
  {
    title: 'Cookies',
    body: [
      'We set one cookie: your session, which keeps you signed in. It is needed for the service to work. We use no analytics, advertising or tracking cookies.',
    ],
  },
  {
    title: 'How long we keep it',
    body: [
      'Your account and library stay until you delete them. Deleting an item removes its file. Expired sessions, used or expired links and old rate-limit records are cleared automatically.',
      'When you delete your account, we remove your sessions, library files, tool runs, invite codes and queued e-mails at once. Your name and e-mail address are replaced by an anonymous placeholder. Payment records and the ENERGY ledger stay, pointing to that placeholder, because accounting, refunds and disputes require them.',
    ],
  },
  {
    title: 'Your choices and rights',
    body: [
      'Under Account settings you can download a copy of your data (your profile, ledger, runs and library files), change your password, end sessions on other devices and delete your account. Depending on where you live, you may also have the right to ask us to correct or restrict what we hold, to object to its use, and to complain to your data protection authority.',
      'You must be at least 18 years old to use the service.',
    ],
  },
  {
    title: 'Changes',
    body: ['If this notice changes in a way that matters, we will say so in the app before the change applies.'],
  },
];

/** The privacy notice: public, linked from the Terms and the landing page's footer. */
export function PrivacyPage() {
  const page = WEB_PAGES.privacy;
  useEffect(() => {
    document.title = page.title;
  }, [page.title]);
  return (
    <div className="app-bg min-h-dvh">
      <header className="mx-auto flex w-full max-w-3xl items-center justify-between gap-4 px-5 pt-6 sm:px-8">
        <Link to="/" aria-label={`${PRODUCT_NAME} home`} className="rounded-lg">
          <Logo />
        </Link>
        <Link to="/" className="inline-flex items-center gap-1.5 text-sm text-zinc-300 hover:text-white">
          <ArrowLeft className="size-4" aria-hidden="true" /> Back to {PRODUCT_NAME}
        </Link>
      </header>
      <main className="mx-auto w-full max-w-3xl px-5 py-10 sm:px-8">
        <article className="rounded-2xl border border-zinc-800/80 bg-zinc-900/40 p-6 sm:p-10">
          <h1 className="text-3xl font-extrabold tracking-tight text-white sm:text-4xl">Privacy Policy</h1>
          <p className="mt-3 text-sm text-zinc-400">{page.description}</p>
          {SECTIONS.map((section) => (
            <section key={section.title} className="mt-8">
              <h2 className="text-lg font-semibold text-zinc-100">{section.title}</h2>
              {section.body.map((text, i) => (
                <p key={i} className="mt-3 text-sm leading-relaxed text-zinc-300">
                  {text}
                </p>
              ))}
            </section>
          ))}
        </article>
      </main>
    </div>
  );
}
