import { useState } from 'react';
import { Box, Input, Text } from '@chakra-ui/react';
import type { WidgetProps } from '@rjsf/utils';
import { fileProblem, imagePixelsProblem } from './file-check.ts';
import { useDescribedBy } from '../engine/forms/described-by.ts';

/**
 * File upload: the file travels as a data URL with its name (what a multipart call turns back into a file). With
 * `accept`, `maxBytes`, `maxWidth` and `maxHeight` options a file of another type, too large, or an image of too many
 * pixels is refused at once, with the reason shown (the server checks them again, by the file's bytes).
 */
export default function FileWidget(props: WidgetProps) {
  const { id, onChange, disabled, readonly, options } = props;
  const { accept, maxBytes, maxWidth, maxHeight } = options as { accept?: string; maxBytes?: number; maxWidth?: number; maxHeight?: number };
  // Only a widget that limits pixels reads the chosen file's bytes before taking it.
  const pixels = maxWidth !== undefined || maxHeight !== undefined ? { maxWidth, maxHeight } : undefined;
  const [name, setName] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const describedBy = useDescribedBy(problem ? `${id}__problem` : undefined);
  return (
    <Box>
      <Input
        id={id}
        name={id}
        type="file"
        accept={accept}
        disabled={disabled || readonly}
        p="1"
        {...(problem ? { 'aria-invalid': true } : {})}
        aria-describedby={describedBy}
        onChange={async (e) => {
          const file = e.target.files?.[0];
          const refused = file && (fileProblem(file, { accept, maxBytes }) ?? (pixels ? imagePixelsProblem(new Uint8Array(await file.arrayBuffer()), pixels) : undefined));
          setProblem(refused);
          if (!file || refused) {
            setName(undefined);
            onChange(undefined);
            return;
          }
          setName(file.name);
          const reader = new FileReader();
          reader.onload = () => onChange(String(reader.result).replace(';base64', `;name=${encodeURIComponent(file.name)};base64`));
          reader.readAsDataURL(file);
        }}
      />
      {problem ? (
        <Text id={`${id}__problem`} role="alert" fontSize="sm" color="fg.error" mt="1">
          {problem}
        </Text>
      ) : name ? (
        <Text fontSize="sm" color="fg.muted" mt="1">
          {name}
        </Text>
      ) : null}
    </Box>
  );
}
