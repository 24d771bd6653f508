describe('yarn', () => { it('works', () => {}) })
