import { useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import { flushSync } from 'react-dom';
import type { WidgetProps } from '@rjsf/utils';
import { afterPaint } from '../after-paint.ts';

/**
 * The text of an input the person is typing into, and its value reported to the form once the keystroke's frame is
 * painted (issue 17, docs/decisions/0242): a keystroke repaints the input at once, and @rjsf's re-render of the form
 * (its state, the other fields, live validation) follows in a task of its own instead of holding that paint. Keys typed
 * within one frame are reported as one change. While the person types, the input shows what they typed; otherwise it
 * shows the form's value (a reset, a value set by the form, what the browser filled in). Leaving the field or pressing
 * Enter reports the last value at once and drops the one still waiting, so a submit or a reset never meets a value one
 * keystroke old.
 */
export function useTypedText(field: Pick<WidgetProps, 'id' | 'value' | 'onChange' | 'onBlur'>, toText: (value: unknown) => string) {
  const { id, value, onChange: report, onBlur } = field;
  const [typed, setTyped] = useState<{ text: string; value: unknown } | null>(null);
  const waiting = useRef<() => void>(undefined);
  const flush = () => {
    waiting.current?.();
    waiting.current = undefined;
    if (typed) flushSync(() => report(typed.value));
  };
  return {
    /**
     * What was typed, and `next`, the value it is for the form. `input` is the field's element: text typed while it has
     * no focus (the browser's autofill) is not kept.
     */
    type(text: string, next: unknown, input: HTMLInputElement) {
      setTyped({ text, value: next });
      waiting.current?.();
      waiting.current = afterPaint(() => {
        waiting.current = undefined;
        report(next);
        if (input.ownerDocument.activeElement !== input) setTyped(null);
      });
    },
    /** The input's value, Enter and leaving the field, to spread on the input. */
    input: {
      value: typed ? typed.text : toText(value),
      onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
        if (event.key === 'Enter') flush();
      },
      // The form gets the value before @rjsf hears of the blur, and the input shows the form's value again.
      onBlur(event: FocusEvent<HTMLInputElement>) {
        flush();
        setTyped(null);
        onBlur(id, event.target.value);
      },
    },
  };
}
