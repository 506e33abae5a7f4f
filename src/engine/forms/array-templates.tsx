/**
 * A repeating group (an array of objects, e.g. the owners) shows each item as a titled card with Remove, and an Add
 * button under them, worded by the field's options (`itemTitle` with {number}, `addLabel`, `removeLabel`). Loaded with
 * the first form that shows a group (templates.tsx), so other forms carry none of it.
 */
import { Button, Fieldset, Flex, Stack } from '@chakra-ui/react';
import type { ArrayFieldItemTemplateProps, ArrayFieldTemplateProps } from '@rjsf/utils';
import { tr } from '../../../core/current-language.ts';

const groupOption = (uiSchema: unknown, name: string, fallback: string, number?: number) =>
  String((uiSchema as { 'ui:options'?: Record<string, unknown> } | undefined)?.['ui:options']?.[name] ?? fallback).replace('{number}', String(number ?? ''));

/** A repeating group: its title, its items as cards, and Add below them. */
export function ArrayFieldTemplate(props: ArrayFieldTemplateProps) {
  const { items, canAdd, onAddClick, disabled, readonly, uiSchema, fieldPathId } = props;
  // @rjsf titles an array by its schema before its uiSchema; the descriptor's label comes first here.
  const title = (uiSchema?.['ui:title'] as string | undefined) ?? props.title;
  return (
    <Fieldset.Root data-group={fieldPathId.$id}>
      {title ? (
        <Fieldset.Legend fontWeight="semibold" fontSize="md" mb="2">
          {title}
        </Fieldset.Legend>
      ) : null}
      <Stack gap="4">{items}</Stack>
      {canAdd ? (
        <Flex mt="3">
          <Button variant="outline" colorPalette="brand" size="sm" onClick={onAddClick} disabled={disabled || readonly}>
            {tr(groupOption(uiSchema, 'addLabel', tr('Add')))}
          </Button>
        </Flex>
      ) : null}
    </Fieldset.Root>
  );
}

/** One item of a repeating group: a card titled 'Owner 1', with its fields and Remove. */
export function ArrayFieldItemTemplate(props: ArrayFieldItemTemplateProps) {
  const { children, buttonsProps, index, parentUiSchema, disabled, readonly } = props;
  const itemTitle = groupOption(parentUiSchema, 'itemTitle', 'Item {number}', index + 1);
  return (
    <Fieldset.Root borderWidth="1px" borderColor="border" borderRadius="md" p="4" data-group-item={index}>
      <Flex justify="space-between" align="center" mb="2">
        <Fieldset.Legend fontWeight="semibold">{itemTitle}</Fieldset.Legend>
        {buttonsProps.hasRemove ? (
          <Button variant="ghost" colorPalette="red" size="sm" onClick={buttonsProps.onRemoveItem} disabled={disabled || readonly} aria-label={`${tr(groupOption(parentUiSchema, 'removeLabel', tr('Remove')))} ${itemTitle}`}>
            {tr(groupOption(parentUiSchema, 'removeLabel', tr('Remove')))}
          </Button>
        ) : null}
      </Flex>
      <Fieldset.Content mt="0">{children}</Fieldset.Content>
    </Fieldset.Root>
  );
}
