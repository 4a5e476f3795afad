import type { ReactNode } from 'react';
import { PRODUCT_NAME } from '../../../shared/constants.js';
import { WEB_PAGES } from '../../../shared/pages.js';

const SECTIONS: Array<[string, ReactNode]> = [
  [
    '1. Acceptance.',
    `By creating an account or using ${PRODUCT_NAME} you agree to these Terms of Service. If you do not agree, do not use the service.`,
  ],
  [
    '2. Eligibility.',
    'You must be at least 18 years old to create an account. You are responsible for keeping your password safe and for all activity under your account.',
  ],
  [
    '3. ENERGY credits.',
    'Tools are paid with ENERGY, an in-app credit. ENERGY has no cash value, cannot be transferred between accounts and is not refundable except where the law requires it. ENERGY spent on a run that fails is returned to your balance automatically.',
  ],
  [
    '4. Payments.',
    'ENERGY bundles are paid through our card payment provider. Prices are shown before you pay. We never see or store your full card number.',
  ],
  [
    '5. Your content.',
    'You keep all rights to the images and videos you upload and create. You give us only the permission needed to store, process and show them to you in order to run the service.',
  ],
  [
    '6. Acceptable use.',
    'Do not upload or generate content that is illegal, that infringes the rights of others, that sexualises minors, or that is meant to harass, deceive or harm. Do not try to break, overload or get around the limits of the service.',
  ],
  [
    '7. AI results.',
    'AI output can be inaccurate or unexpected. You are responsible for how you use the results, and for checking them before you publish them.',
  ],
  [
    '8. Availability.',
    'We work to keep the service running, but it is provided "as is" without warranties. Features, tools and prices may change over time.',
  ],
  [
    '9. Termination.',
    'You may stop using the service at any time. We may suspend accounts that break these terms. Unused ENERGY on an account closed for abuse is forfeited.',
  ],
  [
    '10. Privacy and changes.',
    <>
      We process your account details and files only to provide the service, as described in our{' '}
      {/* A new tab: the register form keeps what was typed. */}
      <a href={WEB_PAGES.privacy.path} target="_blank" rel="noopener" className="text-zinc-200 underline underline-offset-2">
        Privacy Policy
      </a>
      . We may update these terms; continued use after a change means you accept the new terms.
    </>,
  ],
];

/** The scrollable Terms of Service shown in register mode. */
export function TermsText() {
  return (
    <div
      role="region"
      aria-label="Terms of Service text"
      tabIndex={0}
      className="scroll-thin max-h-36 overflow-y-auto rounded-xl border border-zinc-800 bg-zinc-950/60 p-3 text-xs leading-relaxed text-zinc-400"
    >
      <p className="mb-2 font-semibold text-zinc-200">{PRODUCT_NAME} Terms of Service</p>
      {SECTIONS.map(([title, body]) => (
        <p key={title} className="mb-2 last:mb-0">
          <span className="font-medium text-zinc-300">{title} </span>
          {body}
        </p>
      ))}
    </div>
  );
}
