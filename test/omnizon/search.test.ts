import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { catalog, categories, getProduct, searchProducts, startOmnizon, type OmnizonServer } from '../../fixtures/apps/omnizon/index.ts'
import { tokenize } from '../../fixtures/apps/omnizon/catalog.ts'
import { IMAGE_KINDS, productSvg } from '../../fixtures/apps/omnizon/images.ts'
import { Client } from './client.ts'

const byTitle = (start: string) => {
  const p = catalog.find((x) => x.title.startsWith(start))
  if (!p) throw new Error(`no product titled ${start}`)
  return p
}

describe('catalog', () => {
  it('has at least 150 products in at least 12 categories, with unique ids and full details', () => {
    expect(catalog.length).toBeGreaterThanOrEqual(150)
    expect(categories.length).toBeGreaterThanOrEqual(12)
    expect(new Set(catalog.map((p) => p.id)).size).toBe(catalog.length)
    for (const p of catalog) {
      expect(p.id).toMatch(/^p\d{3}$/)
      expect(Math.round(p.price * 100) / 100).toBe(p.price)
      expect(p.rating).toBeGreaterThanOrEqual(1)
      expect(p.rating).toBeLessThanOrEqual(5)
      expect(p.specs.length).toBeGreaterThan(2)
      expect(p.reviews.length).toBeGreaterThanOrEqual(3)
      expect(p.description.length).toBeGreaterThan(40)
      expect(getProduct(p.id)).toBe(p)
    }
  })

  it('holds the products tasks rely on', () => {
    const ultra = byTitle('Samsung Galaxy S24 Ultra')
    const fold = byTitle('Samsung Galaxy Z Fold6')
    expect(ultra.price).toBeLessThan(fold.price)
    expect(ultra.rating).toBeGreaterThan(fold.rating)
    byTitle('Marshall Emberton II Portable Bluetooth Speaker')
    byTitle("Michael Kors Oversized Slim Runway Men's Watch")
    byTitle('KTC 24 inch 1500R Curved Gaming Monitor')
    byTitle('Sony PlayStation DualSense Wireless Controller')
    expect(catalog.some((p) => p.category === 'gaming' && /gaming laptop/i.test(p.title) && p.price < 1000)).toBe(true)
    expect(catalog.filter((p) => /gaming keyboard/i.test(p.title) && p.price < 60).length).toBeGreaterThanOrEqual(3)
    expect(catalog.filter((p) => p.category === 'headphones' && p.price >= 24 && p.price <= 100).length).toBeGreaterThanOrEqual(3)
    expect(catalog.filter((p) => p.category === 'speakers' && p.price < 50).length).toBeGreaterThanOrEqual(3)
    expect(catalog.filter((p) => /makeup kit/i.test(p.title) && p.price < 40).length).toBeGreaterThanOrEqual(2)
    expect(catalog.filter((p) => /coffee maker/i.test(p.title) && p.price < 100).length).toBeGreaterThanOrEqual(3)
    expect(catalog.filter((p) => p.category === 'toys' && p.price >= 15 && p.price <= 50).length).toBeGreaterThanOrEqual(4)
  })

  it('draws an SVG for every product', () => {
    for (const p of catalog) {
      expect(IMAGE_KINDS).toContain(p.image_kind)
      const svg = productSvg(p)
      expect(svg.startsWith('<svg')).toBe(true)
      expect(svg).not.toContain('undefined')
      expect(svg).not.toContain('NaN')
    }
  })
})

describe('searchProducts', () => {
  it('ranks the MacBook Air first for "laptop", real laptops before gaming laptops and bags', () => {
    const r = searchProducts({ q: 'laptop', per_page: 50 })
    expect(r.items[0]?.title).toMatch(/^Apple MacBook Air 13-inch Laptop/)
    const firstOther = r.items.findIndex((p) => p.category !== 'laptops')
    const lastLaptop = r.items.map((p) => p.category).lastIndexOf('laptops')
    expect(lastLaptop).toBeLessThan(firstOther)
  })

  it('puts title matches before matches only in specs or description', () => {
    const r = searchProducts({ q: 'stainless', per_page: 100 })
    const inTitle = r.items.map((p) => tokenize(p.title).includes('stainless'))
    expect(inTitle.includes(true)).toBe(true)
    expect(inTitle.includes(false)).toBe(true)
    expect(inTitle.lastIndexOf(true)).toBeLessThan(inTitle.indexOf(false))
  })

  it('finds several automatic espresso machines with distinct prices; Gevi is the cheapest', () => {
    const r = searchProducts({ q: 'automatic espresso machine', sort: 'price-asc', per_page: 50 })
    expect(r.total).toBeGreaterThanOrEqual(4)
    expect(new Set(r.items.map((p) => p.price)).size).toBe(r.items.length)
    expect(r.items[0]?.title).toMatch(/^Gevi Automatic Espresso Machine/)
    for (const p of r.items) expect(p.title).toMatch(/espresso/i)
  })

  it('matches every word (plurals folded) and falls back to any word when none match all', () => {
    const r = searchProducts({ q: 'Neck Pillows' })
    expect(r.matched).toBe('all')
    expect(r.total).toBeGreaterThanOrEqual(5)
    for (const p of r.items) expect(p.title.toLowerCase()).toContain('pillow')
    const any = searchProducts({ q: 'zzzz dumbbell' })
    expect(any.matched).toBe('any')
    expect(any.items[0]?.title).toMatch(/Dumbbell/)
    expect(searchProducts({ q: 'qqqqzzzz' }).total).toBe(0)
  })

  it('filters by category, brand, price range and minimum rating', () => {
    const r = searchProducts({ q: '', category: 'headphones', min_price: 24, max_price: 100, min_rating: 4.5, per_page: 100 })
    expect(r.total).toBeGreaterThan(0)
    for (const p of r.items) {
      expect(p.category).toBe('headphones')
      expect(p.price).toBeGreaterThanOrEqual(24)
      expect(p.price).toBeLessThanOrEqual(100)
      expect(p.rating).toBeGreaterThanOrEqual(4.5)
    }
    const sony = searchProducts({ q: 'headphones', brand: 'sony', per_page: 100 })
    expect(sony.total).toBe(2)
    for (const p of sony.items) expect(p.brand).toBe('Sony')
  })

  it('sorts by price both ways and by rating', () => {
    const asc = searchProducts({ q: 'monitor', sort: 'price-asc', per_page: 100 }).items.map((p) => p.price)
    expect(asc).toEqual([...asc].sort((a, b) => a - b))
    const desc = searchProducts({ q: 'monitor', sort: 'price-desc', per_page: 100 }).items.map((p) => p.price)
    expect(desc).toEqual([...desc].sort((a, b) => b - a))
    const rating = searchProducts({ q: 'speaker', sort: 'rating', per_page: 100 }).items.map((p) => p.rating)
    expect(rating).toEqual([...rating].sort((a, b) => b - a))
    const gaming = searchProducts({ category: 'gaming', sort: 'price-desc' })
    expect(gaming.items[0]?.title).toMatch(/^Alienware m16 R2 Gaming Laptop/)
  })

  it('paginates 12 per page without overlap or loss, clamping the page', () => {
    const all = searchProducts({ q: '', per_page: 1000 })
    expect(all.total).toBe(catalog.length)
    const first = searchProducts({ q: '' })
    expect(first.items).toHaveLength(12)
    expect(first.pages).toBe(Math.ceil(catalog.length / 12))
    const seen = new Set<string>()
    for (let page = 1; page <= first.pages; page++) {
      const r = searchProducts({ q: '', page })
      expect(r.page).toBe(page)
      for (const p of r.items) {
        expect(seen.has(p.id)).toBe(false)
        seen.add(p.id)
      }
    }
    expect(seen.size).toBe(catalog.length)
    expect(searchProducts({ q: '', page: 999 }).page).toBe(first.pages)
    expect(searchProducts({ q: '', page: 0 }).page).toBe(1)
  })

  it('is deterministic', () => {
    const a = searchProducts({ q: 'wireless headphones', sort: 'relevance', per_page: 100 })
    const b = searchProducts({ q: 'wireless headphones', sort: 'relevance', per_page: 100 })
    expect(a.items.map((p) => p.id)).toEqual(b.items.map((p) => p.id))
  })
})

describe('search pages over HTTP', () => {
  let srv: OmnizonServer
  beforeAll(async () => {
    srv = await startOmnizon()
  })
  afterAll(async () => {
    await srv.close()
  })

  it('records submitted searches, not refinements or empty queries', async () => {
    const c = new Client(srv.url)
    await c.config('task_id=t&run_id=r&remove_popup=true')
    const page = await c.get('/search?q=laptop')
    expect(page.status).toBe(200)
    const first = page.text.indexOf('id="product-link-p012"')
    expect(first).toBeGreaterThan(0)
    expect(page.text.indexOf('id="product-link-')).toBe(first)
    expect(page.text).toContain('1-12 of 14 results')
    await c.get('/search?q=laptop&page=2')
    await c.get('/search?q=laptop&sort=price-asc')
    await c.get('/search?q=')
    await c.get('/search?q=%20%20')
    await c.get('/search?q=Coffee+Maker')
    const s = await c.state()
    expect(s.searches).toEqual(['laptop', 'Coffee Maker'])
  })

  it('renders filters, sorting and pagination links', async () => {
    const c = new Client(srv.url)
    const page = await c.get('/search?q=black&sort=price-asc')
    expect(page.text).toContain('id="sort-price-asc"')
    expect(page.text).toContain('href="/search?q=black&amp;sort=price-desc"')
    expect(page.text).toContain('href="/search?q=black&amp;min_rating=4&amp;sort=price-asc"')
    expect(page.text).toContain('aria-label="Pagination"')
    expect(page.text).toContain('href="/search?q=black&amp;sort=price-asc&amp;page=2"')
    const p2 = await c.get('/search?q=black&sort=price-asc&page=2')
    expect(p2.text).toContain('aria-label="Page 2, current page"')
  })

  it('serves category pages and a 404 for unknown ones', async () => {
    const c = new Client(srv.url)
    const page = await c.get('/category/watches?sort=price-desc')
    expect(page.status).toBe(200)
    expect(page.text).toContain('1-11 of 11 results')
    expect((await c.get('/category/nope')).status).toBe(404)
    expect((await c.get('/product/p999')).status).toBe(404)
  })

  it('serves product images as SVG', async () => {
    const res = await fetch(`${srv.url}/images/p001.svg`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/)
    expect((await res.text()).startsWith('<svg')).toBe(true)
    expect((await fetch(`${srv.url}/images/p999.svg`)).status).toBe(404)
  })
})
