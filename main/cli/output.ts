// Every line the CLI prints starts with its name, so it reads well among other services' logs.

export const say = (line: string): void => {
  process.stdout.write(`navin-manager: ${line}\n`);
};

export const complain = (line: string): void => {
  process.stderr.write(`navin-manager: ${line}\n`);
};
