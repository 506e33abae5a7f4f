/** The icons descriptors may name (menus, buttons), lucide-react imported by path so only these are bundled. */
import type { ComponentType } from 'react';
import type { IconProps } from '../engine/services.ts';
import Activity from 'lucide-react/icons/activity';
import Archive from 'lucide-react/icons/archive';
import ArrowLeftRight from 'lucide-react/icons/arrow-left-right';
import Banknote from 'lucide-react/icons/banknote';
import Building from 'lucide-react/icons/building';
import ChartColumn from 'lucide-react/icons/chart-column';
import CircleDollarSign from 'lucide-react/icons/circle-dollar-sign';
import Download from 'lucide-react/icons/download';
import Globe from 'lucide-react/icons/globe';
import Handshake from 'lucide-react/icons/handshake';
import House from 'lucide-react/icons/house';
import Kanban from 'lucide-react/icons/kanban';
import List from 'lucide-react/icons/list';
import LogOut from 'lucide-react/icons/log-out';
import Mail from 'lucide-react/icons/mail';
import MenuIcon from 'lucide-react/icons/menu';
import MessageSquare from 'lucide-react/icons/message-square';
import Plus from 'lucide-react/icons/plus';
import Send from 'lucide-react/icons/send';
import Settings from 'lucide-react/icons/settings';
import TabletSmartphone from 'lucide-react/icons/tablet-smartphone';
import Undo from 'lucide-react/icons/undo-2';
import UserCog from 'lucide-react/icons/user-cog';
import Users from 'lucide-react/icons/users';
import X from 'lucide-react/icons/x';

export const icons: Record<string, ComponentType<IconProps>> = {
  activity: Activity,
  archive: Archive,
  'arrow-left-right': ArrowLeftRight,
  banknote: Banknote,
  building: Building,
  chart: ChartColumn,
  'circle-dollar-sign': CircleDollarSign,
  download: Download,
  globe: Globe,
  handshake: Handshake,
  house: House,
  kanban: Kanban,
  list: List,
  'log-out': LogOut,
  mail: Mail,
  menu: MenuIcon,
  'message-square': MessageSquare,
  plus: Plus,
  send: Send,
  settings: Settings,
  'tablet-smartphone': TabletSmartphone,
  undo: Undo,
  'user-cog': UserCog,
  users: Users,
  x: X,
};
