/** The portal's route where lenders post their signed callbacks (App_ProcessLenderCallback). */
export const CALLBACK_PATH = '/api/App/ProcessLenderCallback';

/** The address a lender is given for its callbacks about the applications of the portal at `publicUrl`. */
export const callbackUrlOf = (publicUrl: string) => `${publicUrl}${CALLBACK_PATH}`;
