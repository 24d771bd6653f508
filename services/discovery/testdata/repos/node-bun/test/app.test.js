import { test, expect } from 'bun:test'; test('bun', () => expect(1).toBe(1))
