export const RULES = ['a', 'b'];
