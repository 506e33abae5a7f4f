import { PinInput } from '@chakra-ui/react';
import type { WidgetProps } from '@rjsf/utils';
import { tr } from '../../core/current-language.ts';
import { fill } from '../../core/i18n.ts';

/** One-time passcode entry: one box per digit; the value is the digits typed so far. */
export default function OtpWidget(props: WidgetProps) {
  const { id, value, onChange, disabled, options, label } = props;
  const length = (options as { length?: number }).length ?? 6;
  const digits = String(value ?? '').split('').slice(0, length);
  return (
    <PinInput.Root
      otp
      count={length}
      value={Array.from({ length }, (_v, i) => digits[i] ?? '')}
      onValueChange={(e) => onChange(e.valueAsString === '' ? undefined : e.valueAsString)}
      disabled={disabled}
      ids={{ hiddenInput: id }}
      aria-label={label}
    >
      <PinInput.HiddenInput />
      <PinInput.Control>
        {Array.from({ length }, (_v, i) => (
          <PinInput.Input key={i} index={i} aria-label={fill(tr('{label} digit {n} of {count}'), { label, n: i + 1, count: length })} />
        ))}
      </PinInput.Control>
    </PinInput.Root>
  );
}
