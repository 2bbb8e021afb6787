import { rec } from './records.js';

/** A small catalog with known answers: one phone on three platforms, an accessory, other products. */
export const CATALOG = [
  rec({ source: 'shopee_sg', sku: 'SG-A55', price: '499.00', gtin: '8806095426280', rating: 4.6, shipping_days: 3 }),
  rec({ source: 'lazada_my', sku: 'MY-A55', title: 'Samsung Galaxy A55 5G (8GB+128GB) Awesome Navy', price: '1599.00', currency: 'MYR', gtin: '8806095426280', country_code: 'MY', rating: 4.8, shipping_days: 5 }),
  rec({ source: 'amazon_us', sku: 'US-A55', title: 'Samsung Galaxy A55 5G 128GB Navy Unlocked', price: '379.99', currency: 'USD', gtin: '8806095426280', country_code: 'US', rating: 4.2, shipping_days: 1, image_url: null }),
  rec({ source: 'shopee_sg', sku: 'SG-CASE', title: 'Spigen Tough Armor case for Samsung Galaxy A55', brand: 'Spigen', price: '19.90', category: 'Phone Cases', category_path: ['Electronics', 'Mobile Accessories', 'Phone Cases'], rating: 4.1 }),
  rec({ source: 'lazada_sg', sku: 'SG-KETTLE', title: 'Philips Electric Kettle 1.7L HD9350', brand: 'Philips', price: '59.00', category: 'Kettles', category_path: ['Home & Living', 'Kitchen Appliances', 'Kettles'], in_stock: false, rating: 4.4 }),
  rec({ source: 'tiki_vn', sku: '12345', title: 'Nồi cơm điện Sharp KS-COM18V', brand: 'Sharp', price: '1290000', currency: 'VND', country_code: 'VN', category: 'Rice Cookers', category_path: ['Home & Living', 'Kitchen Appliances', 'Rice Cookers'], rating: 4.0 }),
];
