/** A product option that appears in the listing's variants; `stepPct` is the price step between options. */
export interface Axis {
  key: string;
  options: readonly string[];
  stepPct: number;
  /** Whether sellers put the chosen option in the title (storage, volume) or not (shoe size). */
  inTitle: boolean;
}

export interface KindSpec {
  axis?: Axis;
  colours: readonly string[];
  /** Probability that a listing title names the colour. */
  colourInTitle: number;
  /** Name suffixes with their price factor. */
  suffixes: readonly (readonly [string, number])[];
  specs: readonly (readonly [string, readonly (string | number)[]])[];
}

const PHONE_COLOURS = ['Black', 'White', 'Midnight Blue', 'Titanium Gray', 'Mint Green', 'Lavender', 'Graphite', 'Silver'];
const NEUTRAL = ['Black', 'White', 'Silver', 'Gray'];
const FASHION_COLOURS = ['Black', 'White', 'Navy', 'Beige', 'Olive', 'Red', 'Grey', 'Brown'];
const PLAIN: KindSpec['suffixes'] = [['', 1]];

function axis(key: string, options: string[], stepPct: number, inTitle = true): Axis {
  return { key, options, stepPct, inTitle };
}

export const KINDS = {
  phone: {
    axis: axis('storage', ['64GB', '128GB', '256GB', '512GB', '1TB'], 14),
    colours: PHONE_COLOURS, colourInTitle: 0.6,
    suffixes: [['', 1], [' 5G', 1.05], [' Pro', 1.25], [' Ultra', 1.4], [' Plus', 1.12], [' Lite', 0.85]],
    specs: [['ram', ['4GB', '6GB', '8GB', '12GB']], ['screen_size', ['6.1"', '6.4"', '6.6"', '6.7"', '6.8"']], ['battery_mah', [4000, 4500, 5000, 5500]], ['os', ['Android 14', 'Android 15']], ['network', ['5G', '4G LTE']]],
  },
  case: {
    colours: ['Clear', 'Matte Black', 'Navy Blue', 'Sierra Blue', 'Pink Sand', 'Forest Green'], colourInTitle: 0.5,
    suffixes: PLAIN, specs: [['material', ['TPU', 'Polycarbonate', 'Silicone', 'Leather']], ['magsafe', ['yes', 'no']]],
  },
  audio: {
    colours: NEUTRAL.concat(['Midnight Blue', 'Rose Gold']), colourInTitle: 0.5,
    suffixes: [['', 1], [' Pro', 1.3], [' NC', 1.15], [' Lite', 0.8]],
    specs: [['battery_hours', [6, 8, 24, 30, 40]], ['anc', ['yes', 'no']], ['bluetooth', ['5.2', '5.3', '5.4']], ['water_resistance', ['IPX4', 'IPX5', 'IP67']]],
  },
  wearable: {
    axis: axis('case_size', ['41mm', '45mm', '49mm'], 8),
    colours: ['Midnight', 'Starlight', 'Silver', 'Graphite', 'Pink'], colourInTitle: 0.5,
    suffixes: [['', 1], [' Pro', 1.3], [' Classic', 1.15], [' Active', 0.9]],
    specs: [['battery_days', [1, 2, 7, 14]], ['gps', ['yes', 'no']], ['water_resistance', ['5ATM', '10ATM']]],
  },
  camera: {
    axis: axis('kit', ['Body Only', 'with 18-55mm Lens', 'with 24-105mm Lens'], 20),
    colours: ['Black', 'Silver'], colourInTitle: 0.2, suffixes: [['', 1], [' II', 1.15], [' Mark IV', 1.3]],
    specs: [['sensor', ['APS-C', 'Full Frame']], ['megapixels', [24, 26, 33, 45]], ['video', ['4K30', '4K60', '6K']]],
  },
  laptop: {
    axis: axis('storage', ['256GB SSD', '512GB SSD', '1TB SSD', '2TB SSD'], 12),
    colours: ['Silver', 'Space Gray', 'Midnight', 'Black'], colourInTitle: 0.3,
    suffixes: [['', 1], [' OLED', 1.15], [' Pro', 1.25]],
    specs: [['cpu', ['Intel Core i5-1335U', 'Intel Core Ultra 7 155H', 'AMD Ryzen 5 7530U', 'AMD Ryzen 7 8845HS', 'Apple M3']], ['ram', ['8GB', '16GB', '32GB']], ['screen_size', ['13.3"', '14"', '15.6"', '16"']], ['gpu', ['Integrated', 'RTX 4050', 'RTX 4060', 'RTX 4070']]],
  },
  tablet: {
    axis: axis('storage', ['64GB', '128GB', '256GB', '512GB'], 15),
    colours: ['Space Gray', 'Silver', 'Blue', 'Graphite'], colourInTitle: 0.4, suffixes: [['', 1], [' Wi-Fi', 1], [' 5G', 1.18]],
    specs: [['screen_size', ['8.7"', '10.9"', '11"', '12.4"', '13"']], ['ram', ['4GB', '8GB', '12GB']]],
  },
  peripheral: {
    colours: ['Black', 'White', 'Graphite', 'Pale Gray'], colourInTitle: 0.4, suffixes: [['', 1], [' Wireless', 1.2], [' Pro', 1.35], [' Mini', 0.85]],
    specs: [['connection', ['Bluetooth', '2.4GHz + Bluetooth', 'USB-C wired']], ['battery_months', [3, 6, 12, 24]]],
  },
  monitor: {
    axis: axis('screen_size', ['24"', '27"', '32"'], 30),
    colours: ['Black'], colourInTitle: 0, suffixes: [['', 1], [' QHD', 1.2], [' 4K', 1.45]],
    specs: [['refresh_hz', [75, 144, 165, 240]], ['panel', ['IPS', 'VA', 'OLED']], ['resolution', ['1920x1080', '2560x1440', '3840x2160']]],
  },
  ssd: {
    axis: axis('capacity', ['500GB', '1TB', '2TB', '4TB'], 85),
    colours: ['Black'], colourInTitle: 0, suffixes: [['', 1], [' with Heatsink', 1.1]],
    specs: [['interface', ['PCIe 4.0 NVMe', 'PCIe 3.0 NVMe', 'SATA III']], ['read_mbps', [550, 3500, 5000, 7450]]],
  },
  appliance: {
    axis: axis('capacity', ['Standard', 'XL', 'XXL'], 18),
    colours: ['Black', 'White', 'Silver'], colourInTitle: 0.3, suffixes: [['', 1], [' Pro', 1.25], [' Smart', 1.15]],
    specs: [['power_w', [800, 1200, 1500, 1700, 2000]], ['warranty_months', [12, 24]], ['voltage', ['220-240V', '110-120V']]],
  },
  cookware: {
    axis: axis('size', ['20cm', '24cm', '28cm'], 15),
    colours: ['Black', 'Red', 'Grey', 'Cream'], colourInTitle: 0.3, suffixes: [['', 1], [' Set', 2.2], [' Premium', 1.3]],
    specs: [['material', ['Aluminium', 'Stainless Steel', 'Cast Iron', 'Ceramic']], ['induction', ['yes', 'no']], ['dishwasher_safe', ['yes', 'no']]],
  },
  home: {
    colours: ['White', 'Grey', 'Black', 'Beige'], colourInTitle: 0.4, suffixes: [['', 1], [' Plus', 1.2]],
    specs: [['material', ['Polyester', 'Memory Foam', 'Mesh', 'Polypropylene']], ['warranty_months', [12, 24, 60]]],
  },
  skincare: {
    axis: axis('volume', ['30ml', '50ml', '100ml'], 55),
    colours: [], colourInTitle: 0, suffixes: [['', 1], [' Intense', 1.15], [' Night', 1.1]],
    specs: [['skin_type', ['All skin types', 'Oily', 'Dry', 'Sensitive']], ['origin', ['France', 'Korea', 'Japan', 'USA', 'Indonesia']]],
  },
  makeup: {
    colours: ['01 Ivory', '02 Nude', '03 Rose', '04 Coral', '05 Berry', '06 Ruby'], colourInTitle: 0.5,
    suffixes: [['', 1], [' Matte', 1], [' Longwear', 1.1]], specs: [['finish', ['Matte', 'Satin', 'Glossy', 'Natural']]],
  },
  fragrance: {
    axis: axis('volume', ['30ml', '50ml', '100ml'], 45),
    colours: [], colourInTitle: 0, suffixes: [['', 1], [' Intense', 1.15], [' Elixir', 1.3]],
    specs: [['concentration', ['Eau de Parfum', 'Eau de Toilette', 'Parfum']], ['gender', ['Women', 'Men', 'Unisex']]],
  },
  shoes: {
    axis: axis('size', ['US 7', 'US 8', 'US 9', 'US 10', 'US 11'], 0, false),
    colours: FASHION_COLOURS, colourInTitle: 0.8, suffixes: [['', 1], [' Premium', 1.2], [' Low', 1]],
    specs: [['upper', ['Leather', 'Mesh', 'Knit', 'Suede']], ['gender', ['Men', 'Women', 'Unisex']]],
  },
  apparel: {
    axis: axis('size', ['S', 'M', 'L', 'XL', 'XXL'], 0, false),
    colours: FASHION_COLOURS, colourInTitle: 0.7, suffixes: [['', 1], [' Slim Fit', 1], [' Oversized', 1.05]],
    specs: [['material', ['100% Cotton', 'Polyester', 'Cotton Blend']], ['gender', ['Men', 'Women', 'Unisex']]],
  },
  bag: {
    colours: FASHION_COLOURS, colourInTitle: 0.7, suffixes: [['', 1], [' Mini', 0.8], [' Large', 1.2]],
    specs: [['material', ['Leather', 'Canvas', 'Nylon', 'Saffiano Leather']]],
  },
  watch: {
    colours: ['Black', 'Silver', 'Gold', 'Blue Dial', 'Green Dial'], colourInTitle: 0.6, suffixes: [['', 1], [' Automatic', 1.4], [' Solar', 1.2]],
    specs: [['case_mm', [38, 40, 42, 44]], ['water_resistance', ['50m', '100m', '200m']], ['movement', ['Quartz', 'Automatic', 'Solar']]],
  },
  fitness: {
    axis: axis('size', ['Standard', 'Long', 'Pro'], 15),
    colours: ['Black', 'Purple', 'Teal', 'Grey'], colourInTitle: 0.4, suffixes: [['', 1], [' Pro', 1.3]],
    specs: [['material', ['TPE', 'PVC', 'Natural Rubber', 'Steel']], ['weight_kg', [1, 2, 5, 10, 24]]],
  },
  console: {
    axis: axis('edition', ['Digital Edition', 'Standard Edition', 'Bundle Edition'], 15),
    colours: ['White', 'Black'], colourInTitle: 0.3, suffixes: [['', 1], [' Slim', 1], [' Pro', 1.4]],
    specs: [['storage', ['512GB', '825GB', '1TB', '2TB']], ['max_resolution', ['1080p', '4K']]],
  },
  game: {
    axis: axis('platform', ['PS5', 'Nintendo Switch', 'Xbox Series X'], 0),
    colours: [], colourInTitle: 0, suffixes: [['', 1], [' Deluxe Edition', 1.4]],
    specs: [['genre', ['Action', 'Adventure', 'Sports', 'Racing', 'RPG']], ['rating', ['E', 'T', 'M']]],
  },
  toy: {
    colours: [], colourInTitle: 0, suffixes: PLAIN, specs: [['pieces', [250, 540, 1080, 2100, 3600]], ['age', ['6+', '9+', '12+', '18+']]],
  },
  personal: {
    colours: ['White', 'Black', 'Pink', 'Blue'], colourInTitle: 0.4, suffixes: [['', 1], [' Pro', 1.3], [' Plus', 1.15]],
    specs: [['battery_days', [14, 21, 30, 60]], ['modes', [2, 3, 5]], ['waterproof', ['yes', 'no']]],
  },
  consumable: {
    axis: axis('pack', ['Pack of 1', 'Pack of 3', 'Pack of 6'], 160),
    colours: [], colourInTitle: 0, suffixes: [['', 1], [' Plus', 1.1]],
    specs: [['origin', ['Australia', 'USA', 'Japan', 'Vietnam', 'Indonesia', 'Thailand', 'Malaysia']]],
  },
  baby: {
    axis: axis('size', ['NB', 'S', 'M', 'L', 'XL'], 0),
    colours: [], colourInTitle: 0, suffixes: [['', 1], [' Pants', 1.1]],
    specs: [['count', [40, 54, 62, 72, 84]]],
  },
} satisfies Record<string, KindSpec>;

export type KindName = keyof typeof KINDS;

/** Kinds whose model numbers sellers put in titles and MPN fields; nobody types one for noodles. */
export const TECH_KINDS: ReadonlySet<KindName> = new Set<KindName>([
  'phone', 'audio', 'wearable', 'camera', 'laptop', 'tablet', 'peripheral', 'monitor', 'ssd', 'appliance', 'personal', 'console', 'watch',
]);
