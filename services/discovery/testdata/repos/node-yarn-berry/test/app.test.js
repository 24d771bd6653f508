import { test } from 'vitest'; test('berry', () => {})
