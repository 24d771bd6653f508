import fs from "node:fs";

export function main(args) {
  let unused = 1;
  if (args.length == 0) {
    console.log(undefinedThing);
  }
  return args;
}
