import { useId, type ReactNode } from 'react';
import { Lock, Ticket, User } from 'lucide-react';
import { LabeledInput } from '../../components/LabeledField';
import { TermsText } from './TermsText';

// What only the sign-up form shows, and its rules: loaded when a visitor heads for 'Sign up'
// (pointed at, focused or pressed), not with the landing page (decision 032).
export { registrationError } from '../../../shared/registration.js';

/** The register form's values that the sign-in form does not have. */
export interface RegisterValues {
  name: string;
  confirmPassword: string;
  inviteCode: string;
  confirmAge: boolean;
  acceptTerms: boolean;
}

type Change = <K extends keyof RegisterValues>(key: K, value: RegisterValues[K]) => void;

/** The first field of the register form, above the e-mail. */
export function NameField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return <LabeledInput label="Full name" icon={<User />} type="text" autoComplete="name" placeholder="Jane Doe" value={value} onChange={onChange} />;
}

/** The register form's fields under the password: its confirmation, the invite code when asked for, the Terms and the two checks. */
export function RegisterFields({
  values,
  onChange,
  showPassword,
  referralOnly,
}: {
  values: RegisterValues;
  onChange: Change;
  showPassword: boolean;
  referralOnly: boolean;
}) {
  return (
    <>
      <LabeledInput
        label="Confirm password"
        icon={<Lock />}
        type={showPassword ? 'text' : 'password'}
        autoComplete="new-password"
        placeholder="Repeat your password"
        value={values.confirmPassword}
        onChange={(v) => onChange('confirmPassword', v)}
      />

      {referralOnly && (
        <LabeledInput
          label="Invite code"
          icon={<Ticket />}
          inputClassName="font-mono tracking-wider uppercase placeholder:font-sans placeholder:tracking-normal placeholder:normal-case"
          type="text"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          placeholder="Required: registration is invite-only"
          value={values.inviteCode}
          onChange={(v) => onChange('inviteCode', v)}
        />
      )}

      <TermsText />

      <div className="space-y-2.5">
        <Checkbox checked={values.confirmAge} onChange={(v) => onChange('confirmAge', v)}>
          I confirm that I am at least 18 years old
        </Checkbox>
        <Checkbox checked={values.acceptTerms} onChange={(v) => onChange('acceptTerms', v)}>
          I agree to the Terms of Service
        </Checkbox>
      </div>
    </>
  );
}

function Checkbox({ checked, onChange, children }: { checked: boolean; onChange: (v: boolean) => void; children: ReactNode }) {
  const id = useId();
  return (
    <div className="flex items-start gap-2.5">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        className="mt-0.5 size-4 shrink-0 rounded border-zinc-600 bg-zinc-900 accent-fuchsia-500"
      />
      <label htmlFor={id} className="text-sm text-zinc-300 select-none">
        {children}
      </label>
    </div>
  );
}
