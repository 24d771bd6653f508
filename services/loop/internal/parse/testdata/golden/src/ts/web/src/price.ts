export interface Item {
  name: string;
  price: number;
}

export function total(items: Item[]): number {
  let sum: number = 0;
  for (const item of items) {
    sum += item.price;
  }
  return sum;
}

export function label(item: Item): string {
  const n: number = item.name;
  return `${n}: ${item.cost}`;
}
