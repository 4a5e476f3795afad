import { Mail } from 'lucide-react';
import { LabeledInput } from '../../components/LabeledField';

/** The e-mail address of the sign-in, sign-up and reset forms. */
export function EmailField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return <LabeledInput label="Email" icon={<Mail />} type="email" inputMode="email" autoComplete="email" placeholder="you@example.com" value={value} onChange={onChange} />;
}
