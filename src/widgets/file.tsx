import { useState } from 'react';
import { Box, Input, Text } from '@chakra-ui/react';
import type { WidgetProps } from '@rjsf/utils';

/** File upload: the file travels as a data URL with its name (what a multipart call turns back into a file). */
export default function FileWidget(props: WidgetProps) {
  const { id, onChange, disabled, readonly, options } = props;
  const accept = (options as { accept?: string }).accept;
  const [name, setName] = useState<string>();
  return (
    <Box>
      <Input
        id={id}
        name={id}
        type="file"
        accept={accept}
        disabled={disabled || readonly}
        p="1"
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (!file) {
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
      {name ? (
        <Text fontSize="sm" color="fg.muted" mt="1">
          {name}
        </Text>
      ) : null}
    </Box>
  );
}

