import type { DemoCurrency } from './money-minor.js';
import type { DemoRegion } from './record.js';

export type PlatformFamily = 'shopee' | 'lazada' | 'amazon' | 'tiki' | 'tokopedia' | 'bestbuy' | 'walmart';

export interface Platform {
  source: string;
  family: PlatformFamily;
  region: DemoRegion;
  country: string;
  currency: DemoCurrency;
  /** Site origin, e.g. https://shopee.sg */
  origin: string;
  imageHost: string;
  /** Relative share of listings. */
  weight: number;
  /** Price level against the US shelf price (import duties, local competition). */
  priceLevel: number;
  /** Top-level categories the platform sells; undefined = all. */
  sells?: ReadonlySet<string>;
  shipping: [number, number];
}

const ELECTRONICS_ONLY = new Set(['Electronics', 'Computers & Tablets', 'Home Appliances', 'Toys & Games', 'Health & Personal Care']);

function p(
  source: string, family: PlatformFamily, region: DemoRegion, currency: DemoCurrency, origin: string,
  imageHost: string, weight: number, priceLevel: number, shipping: [number, number], sells?: ReadonlySet<string>,
): Platform {
  return { source, family, region, country: region.toUpperCase(), currency, origin, imageHost, weight, priceLevel, shipping, sells };
}

export const PLATFORMS: readonly Platform[] = [
  p('shopee_sg', 'shopee', 'sg', 'SGD', 'https://shopee.sg', 'https://down-sg.img.susercontent.com/file', 9, 1.04, [1, 4]),
  p('lazada_sg', 'lazada', 'sg', 'SGD', 'https://www.lazada.sg', 'https://sg-test-11.slatic.net/p', 8, 1.05, [1, 5]),
  p('amazon_sg', 'amazon', 'sg', 'SGD', 'https://www.amazon.sg', 'https://m.media-amazon.com/images/I', 6, 1.06, [1, 3]),
  p('shopee_my', 'shopee', 'my', 'MYR', 'https://shopee.com.my', 'https://down-my.img.susercontent.com/file', 8, 0.98, [2, 6]),
  p('lazada_my', 'lazada', 'my', 'MYR', 'https://www.lazada.com.my', 'https://my-test-11.slatic.net/p', 7, 0.99, [2, 6]),
  p('shopee_th', 'shopee', 'th', 'THB', 'https://shopee.co.th', 'https://down-th.img.susercontent.com/file', 7, 1.02, [2, 5]),
  p('lazada_th', 'lazada', 'th', 'THB', 'https://www.lazada.co.th', 'https://th-test-11.slatic.net/p', 6, 1.03, [2, 6]),
  p('shopee_ph', 'shopee', 'ph', 'PHP', 'https://shopee.ph', 'https://down-ph.img.susercontent.com/file', 6, 1.05, [3, 8]),
  p('lazada_ph', 'lazada', 'ph', 'PHP', 'https://www.lazada.com.ph', 'https://ph-test-11.slatic.net/p', 6, 1.06, [3, 9]),
  p('tiki_vn', 'tiki', 'vn', 'VND', 'https://tiki.vn', 'https://salt.tikicdn.com/cache/w1200/ts/product', 5, 0.97, [1, 4]),
  p('shopee_vn', 'shopee', 'vn', 'VND', 'https://shopee.vn', 'https://down-vn.img.susercontent.com/file', 7, 0.96, [2, 6]),
  p('shopee_id', 'shopee', 'id', 'IDR', 'https://shopee.co.id', 'https://down-id.img.susercontent.com/file', 6, 0.99, [2, 7]),
  p('tokopedia_id', 'tokopedia', 'id', 'IDR', 'https://www.tokopedia.com', 'https://images.tokopedia.net/img/cache/700', 6, 1.0, [2, 7]),
  p('amazon_us', 'amazon', 'us', 'USD', 'https://www.amazon.com', 'https://m.media-amazon.com/images/I', 9, 1.0, [1, 5]),
  p('bestbuy_us', 'bestbuy', 'us', 'USD', 'https://www.bestbuy.com', 'https://pisces.bbystatic.com/image2/BestBuy_US/images/products', 4, 1.01, [1, 4], ELECTRONICS_ONLY),
  p('walmart_us', 'walmart', 'us', 'USD', 'https://www.walmart.com', 'https://i5.walmartimages.com/seo', 6, 0.99, [2, 6]),
];

/** Region-flavoured words sellers add to titles; matching has to see through them. */
export const TITLE_TAGS: Record<DemoRegion, { prefix: string[]; suffix: string[] }> = {
  sg: { prefix: ['[Official Store]', '[Local Warranty]', '【Ready Stock】', '[SG Seller]'], suffix: [' - Local Set', ' | Free Shipping', ' | 1 Year Warranty', ' (Authentic)'] },
  my: { prefix: ['[Official Store]', '【Ready Stock】', '[MY Set]', '🔥HOT SALE🔥'], suffix: [' - Original Malaysia Set', ' | Free Shipping', ' | COD', ' (100% Original)'] },
  th: { prefix: ['[Official Store]', '【พร้อมส่ง】', '[ส่งฟรี]'], suffix: [' ประกันศูนย์ไทย', ' ของแท้ 100%', ' | Free Shipping'] },
  ph: { prefix: ['[Official Store]', '[Ready Stock]', '[LazMall]', 'COD'], suffix: [' - Original PH', ' | Free Shipping', ' | 1 Year Warranty'] },
  vn: { prefix: ['[Official Store]', '[Mall]', '【Freeship】', '[Trả góp 0%]'], suffix: [' - Hàng chính hãng', ' - Bảo hành 12 tháng', ' | Freeship'] },
  id: { prefix: ['[Official Store]', '[Ready Stock]', '[COD]', 'PROMO'], suffix: [' Garansi Resmi', ' - Original 100%', ' | Free Ongkir'] },
  us: { prefix: [], suffix: [] },
};
