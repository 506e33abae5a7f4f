/** Wrong pairs of deposit amounts an office may type before verification locks (decision 0152). */
export const MAX_WRONG_PAIRS = 3;

export const triesLeft = (failures: number): number => Math.max(0, MAX_WRONG_PAIRS - failures);
