import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { Box, Button, Flex, Input, Text } from '@chakra-ui/react';
import type { WidgetProps } from '@rjsf/utils';
import { tr } from '../../core/current-language.ts';

/** The pad's drawing size in pixels (the PNG the server checks: at least 20 × 10, at most 1600 × 600, ≤ 200 KB). */
const WIDTH = 600;
const HEIGHT = 160;
const INK = '#1a2b4c';

/**
 * A signature pad: draw with a finger, pen or mouse, or type a name that is written on the pad (the keyboard way to
 * sign). The value is the pad as a PNG data URL (App_SignAgreement's signaturePng), or nothing while it is empty.
 */
export default function SignatureWidget(props: WidgetProps) {
  const { id, value, onChange, disabled, readonly } = props;
  const canvas = useRef<HTMLCanvasElement>(null);
  const drawing = useRef<{ x: number; y: number } | null>(null);
  const [typed, setTyped] = useState('');
  const locked = disabled || readonly;

  const pen = () => {
    const ctx = canvas.current?.getContext('2d');
    if (!ctx) return null;
    ctx.strokeStyle = INK;
    ctx.fillStyle = INK;
    ctx.lineWidth = 2.5;
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    return ctx;
  };
  const clear = () => {
    const ctx = pen();
    ctx?.clearRect(0, 0, WIDTH, HEIGHT);
  };
  const publish = () => onChange(canvas.current ? canvas.current.toDataURL('image/png') : undefined);

  // A form reset empties the value: empty the pad too.
  useEffect(() => {
    if (value === undefined || value === null || value === '') {
      clear();
      setTyped('');
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [value]);

  const point = (e: PointerEvent<HTMLCanvasElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    return { x: ((e.clientX - rect.left) * WIDTH) / rect.width, y: ((e.clientY - rect.top) * HEIGHT) / rect.height };
  };

  const endStroke = () => {
    if (!drawing.current) return;
    drawing.current = null;
    if (typed) setTyped('');
    publish();
  };

  const write = (name: string) => {
    clear();
    const ctx = pen();
    if (!ctx || !name.trim()) {
      onChange(undefined);
      return;
    }
    ctx.font = 'italic 48px "Brush Script MT", "Segoe Script", cursive, serif';
    ctx.textBaseline = 'middle';
    ctx.fillText(name, 24, HEIGHT / 2, WIDTH - 48);
    publish();
  };

  return (
    <Box data-signature-pad w="full">
      <Box borderWidth="1px" borderColor="border" borderRadius="md" bg="white" position="relative" w="full" maxW={`${WIDTH}px`}>
        {/* A plain canvas: Chakra's factory reads width and height as CSS, which left the drawing surface at the
            browser's default 300 × 150 while strokes are placed on 600 × 160 — the right half of a signature fell off
            it (issue 16). The attributes size the drawing, the style fits it to the box. */}
        <canvas
          ref={canvas}
          width={WIDTH}
          height={HEIGHT}
          role="img"
          aria-label={tr('Signature pad')}
          style={{ width: '100%', height: 'auto', display: 'block', touchAction: 'none', cursor: locked ? 'not-allowed' : 'crosshair' }}
          onPointerDown={(e) => {
            if (locked) return;
            e.currentTarget.setPointerCapture(e.pointerId);
            const at = point(e);
            drawing.current = at;
            const ctx = pen();
            ctx?.beginPath();
            ctx?.arc(at.x, at.y, 1, 0, Math.PI * 2);
            ctx?.fill();
          }}
          onPointerMove={(e) => {
            const from = drawing.current;
            if (!from) return;
            const to = point(e);
            const ctx = pen();
            ctx?.beginPath();
            ctx?.moveTo(from.x, from.y);
            ctx?.lineTo(to.x, to.y);
            ctx?.stroke();
            drawing.current = to;
          }}
          // A stroke ends on release, and also when the browser takes the pointer away (a cancelled touch, lost
          // capture): what is on the pad is the value, so the ink drawn so far is kept either way.
          onPointerUp={endStroke}
          onPointerCancel={endStroke}
          onLostPointerCapture={endStroke}
        />
        <Box position="absolute" left="6" right="6" bottom="8" borderBottomWidth="1px" borderColor="gray.300" pointerEvents="none" aria-hidden />
      </Box>
      <Flex gap="3" mt="2" align="center" wrap="wrap">
        <Input
          id={id}
          name={id}
          size="sm"
          maxW="320px"
          bg="bg"
          placeholder={tr('Or type your name to sign')}
          value={typed}
          disabled={locked}
          autoComplete="off"
          onChange={(e) => {
            setTyped(e.target.value);
            write(e.target.value);
          }}
        />
        <Button
          size="sm"
          variant="outline"
          disabled={locked}
          onClick={() => {
            clear();
            setTyped('');
            onChange(undefined);
          }}
        >
          {tr('Clear')}
        </Button>
        {value ? (
          <Text fontSize="sm" color="fg.muted">
            {tr('Signature ready.')}
          </Text>
        ) : null}
      </Flex>
    </Box>
  );
}
