import { useState } from 'react';
import { Box, Input, Text } from '@chakra-ui/react';
import type { WidgetProps } from '@rjsf/utils';
import { fileProblem } from './file-check.ts';

/**
 * File upload: the file travels as a data URL with its name (what a multipart call turns back into a file). With
 * `accept` and `maxBytes` options a file of another type or too large is refused at once, with the reason shown
 * (the server checks both again, by the file's bytes).
 */
export default function FileWidget(props: WidgetProps) {
  const { id, onChange, disabled, readonly, options } = props;
  const { accept, maxBytes } = options as { accept?: string; maxBytes?: number };
  const [name, setName] = useState<string>();
  const [problem, setProblem] = useState<string>();
  return (
    <Box>
      <Input
        id={id}
        name={id}
        type="file"
        accept={accept}
        disabled={disabled || readonly}
        p="1"
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}__problem` : undefined}
        onChange={(e) => {
          const file = e.target.files?.[0];
          const refused = file ? fileProblem(file, { accept, maxBytes }) : undefined;
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
