import { KINDS, type KindName, type KindSpec } from './kinds.js';
import type { DemoRegion } from './record.js';

export interface Series {
  /** Name before the number, the number range, and the text after it: "Galaxy S{22-25}". */
  head: string;
  lo: number;
  hi: number;
  tail: string;
  /** USD price range of the base model; falls back to the leaf's. */
  usd: [number, number] | null;
}

export interface BrandLine {
  brand: string;
  series: Series[];
  codePrefix: string;
  gs1Prefix: string;
  /** A local brand sold only in its home market. */
  home: DemoRegion | null;
}

export interface Leaf {
  index: number;
  path: [string, string, string];
  kind: KindName;
  spec: KindSpec;
  usd: [number, number];
  weight: number;
  brands: BrandLine[];
  /** Local-language product word sellers put in front of titles. */
  local: Partial<Record<DemoRegion, string>>;
  gtinShare: number;
}

/** Model-number prefix, GS1 country prefix and home market of brands; unnamed brands get defaults. */
const BRANDS: Record<string, [string, string, DemoRegion?]> = {
  Samsung: ['SM-', '880'], Apple: ['M', '019'], Xiaomi: ['M2', '694'], OPPO: ['CPH', '694'], vivo: ['V2', '694'],
  realme: ['RMX', '694'], Google: ['GA0', '084'], Sony: ['SO-', '454'], Bose: ['BO-', '017'], JBL: ['JBL', '050'],
  Lenovo: ['LN', '195'], ASUS: ['AS', '471'], HP: ['HP', '019'], Dell: ['DL', '088'], Acer: ['NX.', '471'],
  Philips: ['HD', '871'], Panasonic: ['NA-', '490'], Sharp: ['SH-', '497'], Tefal: ['TF', '301'], Nike: ['DV', '019'],
  adidas: ['HQ', '406'], LEGO: ['', '567'], Nintendo: ['HAC-', '045'], Logitech: ['910-', '509'],
  Sunhouse: ['SHD', '893', 'vn'], 'Asia Fan': ['AF', '893', 'vn'], Bobby: ['BB', '893', 'vn'], 'Trung Nguyên': ['TN', '893', 'vn'],
  'Highlands Coffee': ['HC', '893', 'vn'], Acecook: ['AC', '893', 'vn'], Wardah: ['WD', '899', 'id'], Skintific: ['SK', '899', 'id'],
  'Make Over': ['MO', '899', 'id'], 'Kapal Api': ['KA', '899', 'id'], Indomie: ['IN', '899', 'id'], Mistine: ['MT', '885', 'th'],
  Hatari: ['HT', '885', 'th'], Mama: ['MM', '885', 'th'], 'Old Town': ['OT', '955', 'my'], Khind: ['KH', '955', 'my'],
  Mistral: ['MIS', '888', 'sg'], Bench: ['BN', '480', 'ph'], 'Kirkland Signature': ['KS', '096', 'us'],
};
const DEFAULT_GS1 = ['690', '693', '880', '450', '400', '300', '840', '489', '471'];

function brandLine(text: string): BrandLine {
  const [brand, seriesText] = text.split('=');
  const meta = BRANDS[brand];
  const initials = brand.replace(/[^A-Za-z]/g, '').slice(0, 2).toUpperCase();
  let h = 0;
  for (let k = 0; k < brand.length; k++) h = (h * 31 + brand.charCodeAt(k)) >>> 0;
  return {
    brand,
    codePrefix: meta ? meta[0] : `${initials}-`,
    gs1Prefix: meta ? meta[1] : DEFAULT_GS1[h % DEFAULT_GS1.length],
    home: meta?.[2] ?? null,
    series: seriesText.split(',').map((s) => {
      const m = /^(.*?)(?:\{(\d+)-(\d+)\}(.*?))?(?:@(\d+)-(\d+))?$/.exec(s.trim());
      if (!m) throw new Error(`bad series ${s}`);
      return {
        head: m[1], lo: m[2] ? Number(m[2]) : 0, hi: m[3] ? Number(m[3]) : -1, tail: m[4] ?? '',
        usd: m[5] ? [Number(m[5]), Number(m[6])] : null,
      };
    }),
  };
}

const LEAVES_SRC: Array<[string, KindName, number, number, number, string, Partial<Record<DemoRegion, string>>?]> = [
  ['Electronics > Mobile Phones > Smartphones', 'phone', 129, 1299, 10,
    'Samsung=Galaxy S{22-25}@699-1299,Galaxy A{15-56}@149-449,Galaxy Z Flip{4-6}@899-1099;Apple=iPhone {13-16}@599-1199;Xiaomi=Redmi Note {12-14}@149-349,Xiaomi {13-14}@499-899,POCO X{5-6}@229-329;OPPO=Reno{10-12}@349-599,A{58-98}@159-299;vivo=V{27-30}@329-499,Y{17-36}@129-249;realme=C{53-67}@129-199,GT {5-6}@399-599;Google=Pixel {7-9}@499-999',
    { vn: 'Điện thoại', th: 'โทรศัพท์มือถือ', id: 'HP' }],
  ['Electronics > Mobile Phones > Phone Cases', 'case', 8, 49, 3, 'Spigen=Tough Armor,Ultra Hybrid,Liquid Air;OtterBox=Defender,Symmetry;ESR=Classic Hybrid,Armor Tough;Ringke=Fusion,Onyx;UAG=Monarch,Pathfinder;CASETiFY=Impact,Mirror', { vn: 'Ốp lưng', th: 'เคส', id: 'Case' }],
  ['Electronics > Audio > Wireless Earbuds', 'audio', 25, 299, 4, 'Apple=AirPods {2-4}@129-249;Samsung=Galaxy Buds{2-3}@99-229;Sony=WF-1000XM{4-5}@199-299;JBL=Tune {130-235}NC@49-99;Soundcore=Liberty {4-5}@79-149;Xiaomi=Redmi Buds {4-6}@25-59', { vn: 'Tai nghe', th: 'หูฟัง', id: 'Earphone' }],
  ['Electronics > Audio > Headphones', 'audio', 49, 449, 3, 'Sony=WH-1000XM{4-5}@279-399;Bose=QuietComfort {35-45}@249-349;Sennheiser=Momentum {3-4}@299-379;JBL=Live {660-770}NC@99-199;Audio-Technica=ATH-M{40-50}x@99-169', { vn: 'Tai nghe', th: 'หูฟัง' }],
  ['Electronics > Audio > Bluetooth Speakers', 'audio', 29, 399, 2, 'JBL=Flip {5-6}@99-129,Charge {4-5}@149-179;Sony=SRS-XB{13-43}@49-199;Bose=SoundLink Flex@129-149;Marshall=Emberton {2-3}@149-169;Ultimate Ears=BOOM {3-4}@129-149', { vn: 'Loa bluetooth', th: 'ลำโพงบลูทูธ' }],
  ['Electronics > Wearables > Smartwatches', 'wearable', 49, 799, 3, 'Apple=Watch Series {8-10}@399-499,Watch Ultra {1-2}@699-799;Samsung=Galaxy Watch{5-7}@249-399;Garmin=Forerunner {165-965}@249-599;Huawei=Watch GT {3-5}@199-299;Amazfit=GTR {3-4}@129-199', { vn: 'Đồng hồ thông minh', th: 'นาฬิกาอัจฉริยะ', id: 'Smartwatch' }],
  ['Electronics > Cameras > Mirrorless Cameras', 'camera', 499, 2999, 1, 'Sony=Alpha A{6100-6700},Alpha 7 IV@2299-2499;Canon=EOS R{5-10};Fujifilm=X-T{30-50},X-S{10-20};Nikon=Z{5-8};Panasonic=Lumix S5 II@1799-1999', { vn: 'Máy ảnh', th: 'กล้อง' }],
  ['Computers & Tablets > Laptops > Notebooks', 'laptop', 399, 1999, 4, 'Apple=MacBook Air M{1-3}@899-1499;Lenovo=IdeaPad Slim {3-5},ThinkPad X1 Carbon Gen {10-12}@1399-1899;ASUS=Vivobook {14-16},Zenbook {14-14}@899-1299;HP=Pavilion {14-15},Envy x360 {13-15};Dell=Inspiron {14-16},XPS {13-15}@1199-1799;Acer=Aspire {3-7},Swift Go {14-16}', { vn: 'Laptop', th: 'โน๊ตบุ๊ค', id: 'Laptop' }],
  ['Computers & Tablets > Laptops > Gaming Laptops', 'laptop', 799, 2999, 2, 'ASUS=ROG Strix G{15-18},TUF Gaming F{15-17};Lenovo=Legion {5-7};MSI=Katana {15-17},Raider GE{68-78};Acer=Nitro V {15-16},Predator Helios {16-18};HP=Victus {15-16},OMEN {16-17}', { vn: 'Laptop Gaming', th: 'โน๊ตบุ๊คเกมมิ่ง' }],
  ['Computers & Tablets > Tablets > iPad & Tablets', 'tablet', 149, 1299, 3, 'Apple=iPad {9-10}@329-449,iPad Air {5-6}@599-799,iPad Pro M{4-4}@999-1299;Samsung=Galaxy Tab S{8-10}@599-999,Galaxy Tab A{8-9}@149-229;Xiaomi=Pad {6-7}@299-399;Lenovo=Tab P{11-12}@229-349', { vn: 'Máy tính bảng', th: 'แท็บเล็ต', id: 'Tablet' }],
  ['Computers & Tablets > Computer Accessories > Keyboards', 'peripheral', 29, 229, 2, 'Logitech=MX Keys S@99-119,K{380-380}@29-39;Keychron=K{2-8}@69-119,Q{1-6}@169-229;Razer=BlackWidow V{3-4}@139-229;Corsair=K{65-100}@99-229', { vn: 'Bàn phím', th: 'คีย์บอร์ด' }],
  ['Computers & Tablets > Computer Accessories > Mice', 'peripheral', 15, 149, 2, 'Logitech=MX Master {3-3}S@99-99,G{102-502}@19-79;Razer=DeathAdder V{2-3}@49-149,Basilisk V{3-3}@69-69;Microsoft=Bluetooth Mouse@19-29', { vn: 'Chuột', th: 'เมาส์' }],
  ['Computers & Tablets > Monitors > Monitors', 'monitor', 119, 999, 2, 'LG=UltraGear {24-32}GS60;Samsung=Odyssey G{5-9};Dell=UltraSharp U{2423-3223};ASUS=TUF Gaming VG{24-32}9Q;Xiaomi=Mi Monitor {23-34}', { vn: 'Màn hình', th: 'จอมอนิเตอร์' }],
  ['Computers & Tablets > Storage > SSDs', 'ssd', 35, 199, 2, 'Samsung=990 PRO,870 EVO,990 EVO Plus;WD=Black SN{770-850}X;Crucial=P{3-5} Plus;Kingston=NV{2-3}', { vn: 'Ổ cứng SSD' }],
  ['Home Appliances > Kitchen Appliances > Air Fryers', 'appliance', 49, 299, 3, 'Philips=Essential Airfryer HD{9200-9285},Airfryer XXL HD{9650-9870}@249-299;Xiaomi=Smart Air Fryer {4-6}L;Ninja=Foodi AF{100-400};Cosori=Pro LE {4-5}L;Tefal=Easy Fry EY{201-801};Sunhouse=SHD{4020-4062}@39-69;Khind=ARF{3000-3500}', { vn: 'Nồi chiên không dầu', th: 'หม้อทอดไร้น้ำมัน', id: 'Air Fryer' }],
  ['Home Appliances > Kitchen Appliances > Rice Cookers', 'appliance', 29, 399, 2, 'Zojirushi=NS-ZCC{10-18}@199-299;Panasonic=SR-CX{108-188};Tiger=JBV-A{10-18};Sharp=KS-COM{18-19};Cuckoo=CRP-P{06-10}@199-399;Sunhouse=SHD{8600-8955}@29-59;Khind=RC{918-998}', { vn: 'Nồi cơm điện', th: 'หม้อหุงข้าว', id: 'Rice Cooker' }],
  ['Home Appliances > Kitchen Appliances > Coffee Machines', 'appliance', 99, 899, 2, "De'Longhi=Dedica EC{685-885},Magnifica S ECAM{22-23}@449-699;Nespresso=Vertuo Pop,Vertuo Next;Breville=Barista Express BES{870-878}@599-749;Philips=Series {2200-5400} LatteGo@499-899", { vn: 'Máy pha cà phê', th: 'เครื่องชงกาแฟ' }],
  ['Home Appliances > Cleaning > Robot Vacuums', 'appliance', 199, 1299, 2, 'Roborock=S{7-8} MaxV,Q{5-8}+;Ecovacs=Deebot T{20-30} Omni;iRobot=Roomba j{7-9}+;Xiaomi=Robot Vacuum X{10-20};Dreame=L{10-20}s Ultra', { vn: 'Robot hút bụi', th: 'หุ่นยนต์ดูดฝุ่น' }],
  ['Home Appliances > Climate > Air Purifiers', 'appliance', 89, 699, 2, 'Dyson=Purifier Cool TP{07-10}@499-699;Xiaomi=Smart Air Purifier {4-4};Sharp=FP-J{30-80};Philips=Series {1000-3000}i;Coway=AP-{1018-1512};Blueair=Blue Pure {411-511}', { vn: 'Máy lọc không khí', th: 'เครื่องฟอกอากาศ' }],
  ['Home Appliances > Climate > Fans', 'appliance', 19, 499, 2, 'Dyson=Cool AM{07-07}@349-499;Xiaomi=Smart Standing Fan {2-2};KDK=M{40-56};Panasonic=F-{409-409}M;Mistral=MSF{1648-1800};Hatari=HT-S{16-18}M1@19-49;Asia Fan=D{16001-16029}@19-39', { vn: 'Quạt điện', th: 'พัดลม', id: 'Kipas Angin' }],
  ['Home & Living > Kitchen > Cookware', 'cookware', 19, 349, 3, 'Tefal=Ingenio Expertise,Unlimited Frypan;Le Creuset=Signature Cast Iron Casserole@299-349;Zwilling=Vitality,Dura Line;Lock&Lock=Hard & Light Frypan;Sunhouse=SHG{1120-1130}@19-49;Meyer=Accent Series;Happycall=Diamond IH', { vn: 'Chảo chống dính', th: 'กระทะ', id: 'Panci' }],
  ['Home & Living > Kitchen > Food Storage', 'home', 9, 69, 2, 'Lock&Lock=Classic Container Set,Bisfree Set;Tupperware=Modular Mates,Ventsmart;IKEA=365+ Container Set;Rubbermaid=Brilliance Set', { vn: 'Hộp đựng thực phẩm', th: 'กล่องถนอมอาหาร' }],
  ['Home & Living > Bedding > Pillows', 'home', 15, 199, 2, 'IKEA=Skogsfräken,Rosenskärm;Tempur=Original Pillow@149-199;Dunlopillo=Latex Classic;Sealy=Posturepedic Pillow;Simmons=Beautyrest Pillow', { vn: 'Gối', th: 'หมอน', id: 'Bantal' }],
  ['Home & Living > Furniture > Office Chairs', 'home', 89, 1699, 2, 'Herman Miller=Aeron@1399-1699,Embody@1599-1699;Secretlab=Titan Evo@499-599;IKEA=Markus@179-229;Sihoo=M{18-90}@99-299;Ergotune=Supreme V{3-4}@399-549', { vn: 'Ghế văn phòng', th: 'เก้าอี้สำนักงาน' }],
  ['Beauty > Skincare > Serums', 'skincare', 8, 120, 4, "The Ordinary=Niacinamide 10% + Zinc 1%@8-12,Hyaluronic Acid 2% + B5@9-13;La Roche-Posay=Hyalu B5 Serum@39-49;Estée Lauder=Advanced Night Repair@79-120;Kiehl's=Clearly Corrective Serum@59-89;Some By Mi=AHA BHA PHA Serum@15-22;COSRX=Advanced Snail 96 Essence@18-25;Wardah=Crystal Secret Serum@6-10;Skintific=5X Ceramide Serum@9-14", { vn: 'Serum', th: 'เซรั่ม', id: 'Serum' }],
  ['Beauty > Skincare > Moisturizers', 'skincare', 9, 79, 3, 'CeraVe=Moisturising Cream@14-19;Cetaphil=Moisturizing Cream@12-17;Neutrogena=Hydro Boost Water Gel@17-24;Laneige=Water Bank Cream@32-45;Clinique=Dramatically Different@29-39;Wardah=Perfect Bright Moisturizer@4-7', { vn: 'Kem dưỡng ẩm', th: 'ครีมบำรุงผิว', id: 'Pelembab' }],
  ['Beauty > Skincare > Sunscreen', 'skincare', 8, 45, 3, 'Biore=UV Aqua Rich Watery Essence@9-14;Anessa=Perfect UV Milk@29-39;La Roche-Posay=Anthelios UVMune 400@29-39;Skin Aqua=Tone Up UV Essence@8-12;Beauty of Joseon=Relief Sun@15-19;Mistine=Aqua Base Sun@5-8', { vn: 'Kem chống nắng', th: 'ครีมกันแดด', id: 'Sunscreen' }],
  ['Beauty > Makeup > Lipstick', 'makeup', 6, 49, 3, "MAC=Matte Lipstick@21-25;Maybelline=SuperStay Matte Ink@9-12;L'Oréal=Color Riche@10-14;Dior=Rouge Dior@45-49;3CE=Velvet Lip Tint@15-19;Romand=Juicy Lasting Tint@9-13;Wardah=Colorfit Velvet Matte@3-6", { vn: 'Son môi', th: 'ลิปสติก', id: 'Lipstik' }],
  ['Beauty > Makeup > Foundation', 'makeup', 8, 59, 2, "Estée Lauder=Double Wear Foundation@45-52;Maybelline=Fit Me Matte + Poreless@8-12;L'Oréal=Infallible 24H Fresh Wear@14-19;Fenty Beauty=Pro Filt'r Foundation@39-42;Make Over=Powerstay Foundation@8-11", { vn: 'Kem nền', th: 'รองพื้น', id: 'Foundation' }],
  ['Beauty > Fragrance > Eau de Parfum', 'fragrance', 49, 199, 2, 'Chanel=Coco Mademoiselle@129-199;Dior=Sauvage@119-179;YSL=Libre@119-169;Jo Malone=Wood Sage & Sea Salt@89-169;Versace=Eros@79-129;Calvin Klein=CK One@49-79', { vn: 'Nước hoa', th: 'น้ำหอม', id: 'Parfum' }],
  ['Fashion > Shoes > Sneakers', 'shoes', 49, 199, 3, "Nike=Air Force 1 '07@109-119,Air Max {90-97}@129-179,Dunk Low@109-119;adidas=Samba OG@99-109,Ultraboost {22-24}@179-199,Stan Smith@89-99;New Balance={327-574}@89-129;Converse=Chuck Taylor All Star@55-65;Vans=Old Skool@65-70;Puma=Suede Classic@65-75", { vn: 'Giày', th: 'รองเท้า', id: 'Sepatu' }],
  ['Fashion > Bags > Handbags', 'bag', 39, 449, 2, 'Coach=Tabby Shoulder Bag {20-26}@295-449;Michael Kors=Jet Set Tote@129-249;Charles & Keith=Chain Strap Bag@59-99;Pedro=Leather Tote@79-139;Kate Spade=Knott Satchel@199-329;Longchamp=Le Pliage@125-165', { vn: 'Túi xách', th: 'กระเป๋าถือ', id: 'Tas' }],
  ["Fashion > Men's Clothing > T-Shirts", 'apparel', 9, 59, 3, "Uniqlo=AIRism Cotton Crew Neck T-Shirt@12-20,U Crew Neck T-Shirt@15-20;Nike=Dri-FIT Legend Tee@25-30;adidas=Essentials 3-Stripes Tee@22-28;H&M=Regular Fit T-shirt@9-13;Levi's=Housemark Tee@20-30;Bench=Basic Crew Tee@7-12", { vn: 'Áo thun', th: 'เสื้อยืด', id: 'Kaos' }],
  ['Fashion > Watches > Analog Watches', 'watch', 49, 699, 2, 'Casio=G-Shock GA-{2100-2110}@99-129,G-Shock DW-{5600-5610}@59-79;Seiko=5 Sports SRPD{51-99}@275-325;Citizen=Eco-Drive BM{7100-7109}@149-249;Tissot=PRX {35-40}mm@375-699;Daniel Wellington=Classic {36-40}@149-199', { vn: 'Đồng hồ', th: 'นาฬิกา', id: 'Jam Tangan' }],
  ['Sports & Outdoors > Fitness > Yoga Mats', 'fitness', 15, 149, 2, 'Manduka=PRO Yoga Mat 6mm@99-129;Lululemon=The Mat 5mm@98-118;Liforme=Yoga Mat@139-149;Decathlon=Domyos Comfort Mat@15-25;Gaiam=Premium Print Mat@22-35', { vn: 'Thảm tập yoga', th: 'เสื่อโยคะ' }],
  ['Sports & Outdoors > Fitness > Dumbbells', 'fitness', 19, 449, 2, 'Bowflex=SelectTech {552-1090}@349-449;PowerBlock=Elite EXP@299-399;Decathlon=Domyos Hex Dumbbell@19-49;Reebok=Hex Dumbbell@25-59', { vn: 'Tạ tay', th: 'ดัมเบล', id: 'Dumbbell' }],
  ['Sports & Outdoors > Cycling > Bike Helmets', 'fitness', 29, 299, 1, 'Giro=Syntax MIPS@99-129;Bell=Z20 MIPS@149-199;Specialized=Align II@49-59;Kask=Protone Icon@249-299;POC=Ventral Air@229-279', { vn: 'Mũ bảo hiểm xe đạp' }],
  ['Sports & Outdoors > Running > Running Shoes', 'shoes', 79, 199, 3, 'ASICS=Gel-Kayano {29-31}@149-169,Gel-Nimbus {25-26}@149-169;Nike=Pegasus {40-41}@129-139;HOKA=Clifton {8-9}@139-149;Brooks=Ghost {15-16}@139-149;Saucony=Ride {16-17}@129-139', { vn: 'Giày chạy bộ', th: 'รองเท้าวิ่ง', id: 'Sepatu Lari' }],
  ['Toys & Games > Gaming > Consoles', 'console', 299, 699, 2, 'Sony=PlayStation 5@449-499;Nintendo=Switch OLED@329-349,Switch Lite@199-219;Microsoft=Xbox Series X@499-549,Xbox Series S@299-349;Valve=Steam Deck OLED@549-649;ASUS=ROG Ally@599-699', { vn: 'Máy chơi game', th: 'เครื่องเล่นเกม' }],
  ['Toys & Games > Gaming > Controllers', 'peripheral', 29, 199, 2, 'Sony=DualSense Wireless Controller@69-75,DualSense Edge@199-199;Microsoft=Xbox Wireless Controller@59-65;Nintendo=Switch Pro Controller@69-69;8BitDo=Ultimate Controller@49-69', { vn: 'Tay cầm chơi game', th: 'จอยเกม' }],
  ['Toys & Games > Gaming > Video Games', 'game', 19, 69, 3, "Nintendo=The Legend of Zelda: Tears of the Kingdom@59-69,Mario Kart 8 Deluxe@49-59,Super Mario Bros. Wonder@49-59;Sony=Marvel's Spider-Man 2@59-69,God of War Ragnarök@49-69;EA=EA Sports FC {24-25}@39-69;Capcom=Resident Evil {2-4}@29-59;Bandai Namco=Elden Ring@39-59", { vn: 'Đĩa game', th: 'แผ่นเกม' }],
  ['Toys & Games > Building Toys > Building Sets', 'toy', 19, 499, 2, 'LEGO=Technic {42100-42170},Star Wars {75300-75380},City {60300-60400},Icons {10290-10330};Mega Bloks=Building Set;BlueBrixx=Set {100-400}', { vn: 'Đồ chơi lắp ráp', th: 'ตัวต่อ' }],
  ['Health & Personal Care > Personal Care > Electric Toothbrushes', 'personal', 19, 299, 2, 'Philips=Sonicare {4100-9900}@49-299;Oral-B=iO Series {3-9}@99-299,Pro {1-3}@29-79;Xiaomi=Electric Toothbrush T{300-700}@19-49', { vn: 'Bàn chải điện', th: 'แปรงสีฟันไฟฟ้า', id: 'Sikat Gigi Elektrik' }],
  ['Health & Personal Care > Personal Care > Shavers', 'personal', 29, 349, 2, 'Philips=Shaver Series {3000-9000}@49-349;Braun=Series {5-9}@99-349;Panasonic=ES-LV{67-97}@199-299', { vn: 'Máy cạo râu', th: 'เครื่องโกนหนวด' }],
  ['Health & Personal Care > Supplements > Vitamins', 'consumable', 8, 49, 3, 'Blackmores=Bio C 1000mg,Fish Oil 1000,Multivitamin + Minerals;Centrum=Advance Multivitamin;Swisse=Ultiboost Vitamin D;Kirkland Signature=Daily Multi@12-19;Nature Made=Vitamin C 500mg', { vn: 'Viên uống', th: 'วิตามิน', id: 'Vitamin' }],
  ['Baby & Kids > Diapering > Diapers', 'baby', 9, 39, 3, 'Pampers=Premium Care Tape,Baby Dry Pants;Huggies=Dry Pants,Platinum Naturemade;MamyPoko=Pants Extra Dry;Merries=Tape Diapers;Bobby=Fresh Pants@8-15', { vn: 'Tã', th: 'ผ้าอ้อม', id: 'Popok' }],
  ['Baby & Kids > Feeding > Baby Formula', 'consumable', 15, 69, 2, 'Enfagrow=A+ Stage {3-4} 900g;Similac=Gain Stage {3-4} 900g;Friso=Gold Stage {3-4} 900g;Dumex=Dugro Stage {3-4};Nestlé=NAN Optipro Stage {3-4}', { vn: 'Sữa bột', th: 'นมผง', id: 'Susu Formula' }],
  ['Groceries > Beverages > Coffee', 'consumable', 4, 29, 2, 'Nescafé=Gold Blend 200g;Starbucks=Pike Place Ground 340g@9-14;Lavazza=Qualità Oro 250g;Highlands Coffee=Ground Coffee 200g@3-6;Trung Nguyên=Legend Classic@4-8;Kapal Api=Special Mix@2-4;Old Town=White Coffee 3 in 1@4-7', { vn: 'Cà phê', th: 'กาแฟ', id: 'Kopi' }],
  ['Groceries > Pantry > Instant Noodles', 'consumable', 1, 12, 2, 'Indomie=Mi Goreng Original@1-3;Nissin=Cup Noodles Seafood@1-3;Mama=Tom Yum Shrimp@1-2;Nongshim=Shin Ramyun@2-5;Acecook=Hảo Hảo Tôm Chua Cay@1-2;Maggi=Kari Letupan@1-3', { vn: 'Mì', th: 'บะหมี่กึ่งสำเร็จรูป', id: 'Mie Instan' }],
];

/** High for packaged goods and branded electronics, low for fashion sold by small sellers. */
const GTIN_SHARE: Partial<Record<KindName, number>> = { apparel: 0.25, bag: 0.3, case: 0.35, home: 0.45, makeup: 0.55 };

export const LEAVES: readonly Leaf[] = LEAVES_SRC.map(([path, kind, lo, hi, weight, brands, local], index) => ({
  index,
  path: path.split(' > ') as [string, string, string],
  kind,
  spec: KINDS[kind],
  usd: [lo, hi],
  weight,
  brands: brands.split(';').map(brandLine),
  local: local ?? {},
  gtinShare: GTIN_SHARE[kind] ?? 0.65,
}));

export const PHONE_LEAF = LEAVES.find((l) => l.kind === 'phone')!;
export const CASE_LEAF = LEAVES.find((l) => l.kind === 'case')!;
export const EARBUDS_LEAF = LEAVES.find((l) => l.path[2] === 'Wireless Earbuds')!;
