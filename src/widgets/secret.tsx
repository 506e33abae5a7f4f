import { useState } from 'react';
import { Button, InputGroup } from '@chakra-ui/react';
import type { WidgetProps } from '@rjsf/utils';
import { MaskedInput, maskOf } from './fields.tsx';
import { tr } from '../../core/current-language.ts';

/**
 * A secret such as an SSN: typed through its schema's x-mask, hidden as it is typed unless shown, never filled in from
 * what is stored (the field's hint says what is on file, e.g. the last four digits).
 */
export default function SecretWidget(props: WidgetProps) {
  const [shown, setShown] = useState(false);
  const mask = maskOf(props, '#'.repeat(Number(props.schema.maxLength ?? 20)));
  return (
    <InputGroup
      endElement={
        <Button variant="ghost" size="xs" me="-2" onClick={() => setShown((s) => !s)} aria-controls={props.id} aria-pressed={shown}>
          {shown ? tr('Hide') : tr('Show')}
        </Button>
      }
    >
      <MaskedInput {...props} mask={mask} inputMode="numeric" autoComplete="off" placeholderText={mask.replace(/#/g, '•')} concealed={!shown} />
    </InputGroup>
  );
}
