/** Project slugs: lower-case letters, digits and single dashes, 1 to 64 characters; safe inside index keys. */
export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){0,63}$/
export const isValidSlug = (value: string): boolean => SLUG_PATTERN.test(value)
