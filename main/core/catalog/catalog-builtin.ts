// The catalog the manager ships with: the files of resources/catalog/, bundled into the build as text so the
// desktop app and the CLI read exactly those files. Validated at start; an invalid one fails catalog_valid.
import etcd from '../../../resources/catalog/etcd.yaml?raw';
import mariadb from '../../../resources/catalog/mariadb.yaml?raw';
import nats from '../../../resources/catalog/nats.yaml?raw';
import nodeExporter from '../../../resources/catalog/node-exporter.yaml?raw';
import opa from '../../../resources/catalog/opa.yaml?raw';
import openfga from '../../../resources/catalog/openfga.yaml?raw';
import postgresql from '../../../resources/catalog/postgresql.yaml?raw';
import { tryParseCatalog, type CatalogFile, type CatalogLoad } from './catalog-loader';

export const BUILTIN_CATALOG_FILES: readonly CatalogFile[] = [
  { file: 'etcd.yaml', text: etcd },
  { file: 'mariadb.yaml', text: mariadb },
  { file: 'nats.yaml', text: nats },
  { file: 'node-exporter.yaml', text: nodeExporter },
  { file: 'opa.yaml', text: opa },
  { file: 'openfga.yaml', text: openfga },
  { file: 'postgresql.yaml', text: postgresql },
];

export const loadBuiltinCatalog = (): CatalogLoad => tryParseCatalog([...BUILTIN_CATALOG_FILES]);
