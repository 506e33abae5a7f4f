import { ChakraProvider, defaultSystem, Box, Heading, Text, Link } from '@chakra-ui/react';
import { useEffect, useState } from 'react';

interface Health {
  status: string;
  database: string;
}

/**
 * The application shell until the descriptor engine (routes, layouts, menus) renders the pages.
 * It proves the one-origin wiring: the web app, the API and its reference page.
 */
export function Shell() {
  const [health, setHealth] = useState<Health | undefined>();
  useEffect(() => {
    fetch('/api/health')
      .then((response) => (response.ok ? (response.json() as Promise<Health>) : undefined))
      .then(setHealth)
      .catch(() => setHealth(undefined));
  }, []);
  return (
    <ChakraProvider value={defaultSystem}>
      <Box as="main" maxW="720px" mx="auto" p="8">
        <Heading as="h1" size="2xl" mb="4">
          Patient Financing Portal
        </Heading>
        <Text mb="2" data-testid="api-status">
          API: {health ? `${health.status} (database ${health.database})` : 'connecting…'}
        </Text>
        <Link href="/api/docs" color="blue.600">
          API reference
        </Link>
      </Box>
    </ChakraProvider>
  );
}
