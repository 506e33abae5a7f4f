/**
 * The header that names a descriptor set by its hash (empty for the files as deployed): every API answer names the
 * live set in it, and the web app's writes name the set their page is drawn from (decisions 0228, 0289).
 */
export const DESCRIPTOR_SET_HEADER = 'x-descriptor-set';
