import { Mail } from 'lucide-react';
import { LabeledField } from '../../components/LabeledField';

/** The e-mail address of the sign-in, sign-up and reset forms. */
export function EmailField({ id, value, onChange }: { id: string; value: string; onChange: (value: string) => void }) {
  return (
    <LabeledField id={id} label="Email" icon={<Mail />}>
      <input
        id={id}
        className="input pl-10"
        type="email"
        inputMode="email"
        autoComplete="email"
        placeholder="you@example.com"
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </LabeledField>
  );
}
